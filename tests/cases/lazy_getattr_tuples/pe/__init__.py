# openai's loader: `module_name, symbol_name = _EXPORTS[name]` (a subscript unpacked, not
# .get), then import_module(module_name, __name__)
import importlib

_EXPORTS = {
    "Chat": (".chat", "Chat"),
    "Late": (".late", "Late"),
}


def __getattr__(name):
    if name in _EXPORTS:
        module_name, symbol_name = _EXPORTS[name]
        value = getattr(importlib.import_module(module_name, __name__), symbol_name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
