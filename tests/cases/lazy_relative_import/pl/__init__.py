# R: plotly's relative_import(__name__, rel_modules, rel_classes) gives the module __getattr__
# and __all__; __all__ is appended to, and a new __getattr__ hands every other name to the
# saved one (`return orig_getattr(import_name)`)
from _plotly_utils.importers import relative_import

__all__, __getattr__, __dir__ = relative_import(
    __name__, [".sub"], ["._a.A", "._b.B", "._b.Gone"]
)

__all__.append("Extra")
orig_getattr = __getattr__


def __getattr__(import_name):
    if import_name == "Extra":
        from ._extra import Extra

        return Extra
    return orig_getattr(import_name)
