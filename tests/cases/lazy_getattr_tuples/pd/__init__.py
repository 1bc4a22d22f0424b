# R25: pydantic's loader: a dict of (package, module) tuples built from __spec__.parent,
# unpacked in __getattr__ and imported with import_module(module_name, package=package); a
# name it does not list goes to a fallback made at import time, whose answer is not known
from importlib import import_module


def _make_fallback(module):
    def fallback(name):
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    return fallback


_dynamic_imports = {
    "Model": (__spec__.parent, ".main"),
    "Field": (__spec__.parent, ".fields"),
    "fields": (__spec__.parent, "__module__"),
    "Plain": (__spec__.parent, ".plain"),
    "plain_mod": (__spec__.parent, "__module__"),
}
_fallback = _make_fallback(__name__)


def __getattr__(attr_name):
    dynamic_attr = _dynamic_imports.get(attr_name)
    if dynamic_attr is None:
        return _fallback(attr_name)
    package, module_name = dynamic_attr
    if module_name == "__module__":
        result = import_module(f".{attr_name}", package=package)
        globals()[attr_name] = result
        return result
    module = import_module(module_name, package=package)
    return getattr(module, attr_name)
