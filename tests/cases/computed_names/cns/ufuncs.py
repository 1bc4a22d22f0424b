# R23: torch's _numpy/_ufuncs shape: `vars()[name] = ...` over a list computed from dir() of
# another module, filtered; `arr` reads one of them in a class body, imported before the loop.
from . import impl
from . import arr  # noqa: F401

_names = [n for n in dir(impl) if not n.startswith("_") and n not in ["helper", "torch"]]
for name in _names:
    vars()[name] = getattr(impl, name)
_more = _names + ["extra"]


def extra():
    pass


__all__ = ["extra"]
__all__ += _names
