import types

SKIPLIST = ("json", "lcf.plugins.alpha", "lcf.plugins.beta")
FOUND = []


def add(import_name) -> None:
    if isinstance(import_name, types.ModuleType):
        return add(import_name.__name__)
    if not isinstance(import_name, str):
        raise AssertionError("expected a str")
    from importlib.util import find_spec

    spec = find_spec(import_name)  # imports the parent package
    if not spec:
        return
    FOUND.append(spec.name)


for _name in SKIPLIST:
    add(_name)
DONE = True
