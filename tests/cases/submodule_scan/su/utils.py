import importlib
import os


def import_submodule(mod):
    """Import every public submodule of the package `mod`, in the order listed."""
    for filename in os.listdir(os.path.dirname(mod.__file__)):
        if filename.endswith(".py") and filename[0] != "_":
            importlib.import_module(f"{mod.__name__}.{filename[:-3]}")
