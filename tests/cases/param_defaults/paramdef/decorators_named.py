# the other branch: register(name="x") is called with func=None, reaching _with_name, which
# is bound only after the decorated definition
from .decorators import register as _unused  # noqa: F401  (the package's own style)


def register(func=None, *, name=None):
    if func is None:
        return _with_name(name)
    return func


@register(name="x")
def named():
    return 2


def _with_name(name):
    return lambda f: f
