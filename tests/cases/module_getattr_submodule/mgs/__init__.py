# R10b: a package whose PEP 562 __getattr__ imports the submodules it lists and raises
# AttributeError for any other name (plotly's `relative_import`). Asked for a submodule's
# name, it imports that submodule or raises: `from mgs import sub` imports `sub` either way.
import importlib

_LAZY = {"listed", "lcyc_b"}


def __getattr__(name):
    if name in _LAZY:
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
