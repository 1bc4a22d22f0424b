# a module __getattr__ over a table made with dict(NAME=...): a listed name answers with what
# its entry makes, any other raises AttributeError (bokeh.core.templates)
from functools import lru_cache


def _make(name):
    return name.upper()


_templates = dict(
    FILE=lambda: _make("file"),
    MACROS=lambda: _make("macros"),
)


@lru_cache(None)
def __getattr__(name):
    if name in _templates:
        return _templates[name]()
    raise AttributeError(name)
