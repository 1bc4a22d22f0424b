from ..lowering import register


@register("mm")
def mm():
    pass
