"""Subcommands found by listing the package's own directory (bokeh's idiom): the file
system's order, each module imported by a relative import_module."""
REGISTRY = []


def _collect():
    from importlib import import_module
    from os import listdir
    from os.path import dirname

    found = []
    for file in listdir(dirname(__file__)):
        if not file.endswith(".py") or file in ("__init__.py", "__main__.py"):
            continue
        modname = file.rstrip(".py")  # strips characters, not the suffix
        found.append(import_module("." + modname, __package__))
    return found


commands = _collect()
