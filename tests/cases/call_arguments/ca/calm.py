import importlib


def _load(candidates):
    for label, name in candidates:
        importlib.import_module(name)


def setup():
    deps = [("one", "ca.one")]
    _load(candidates=deps)


setup()
READY = 1
