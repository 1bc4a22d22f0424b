# a literal list held by a name, passed to a function replayed at import time: the function
# loops over the parameter and imports each entry's module; ca.two reads READY too early
import importlib


def _load(candidates):
    for label, name in candidates:
        importlib.import_module(name)


def setup():
    deps = [("one", "ca.one"), ("two", "ca.two")]
    _load(deps)


setup()
READY = 1
