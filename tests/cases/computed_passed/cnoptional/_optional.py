# R27: pandas' import_optional_dependency: the module name is the caller's argument.
import importlib


def import_optional(name, extra="", *, errors="raise"):
    try:
        module = importlib.import_module(name)
    except ImportError:
        if errors == "raise":
            raise
        return None
    return module
