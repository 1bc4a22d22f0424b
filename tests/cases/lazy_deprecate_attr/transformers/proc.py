# R: transformers' deprecate_attr(__name__, remove=..., rename=...) is the module __getattr__:
# the keys of either table answer, any other name raises AttributeError
from .utils.deprecation import deprecate_attr
from .kw import NewKwargs


class OldKwargs:
    pass


__getattr__ = deprecate_attr(
    __name__,
    remove={"Gone": (OldKwargs, "5.29.0")},
    rename={"Renamed": (NewKwargs, "6.0.0")},
)
__all__ = ["OldKwargs"]
