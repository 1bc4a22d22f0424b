# @register passes the function (not None); @register(name=...) passes nothing positional
def register(func=None, *, name=None):
    if func is None:
        return _with_name(name)
    return func


@register
def plain():
    return 1


def _with_name(name):
    return lambda f: f
