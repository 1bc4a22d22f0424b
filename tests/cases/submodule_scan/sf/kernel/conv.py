from ..lowering import LATE, register


@register("conv")
def conv():
    return LATE
