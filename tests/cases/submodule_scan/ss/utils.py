import importlib
import os
from typing import cast


def import_submodule(mod):
    """Import every public submodule of the package `mod`, in name order."""
    for filename in sorted(os.listdir(os.path.dirname(cast(str, mod.__file__)))):
        if filename.endswith(".py") and filename[0] != "_":
            importlib.import_module(f"{mod.__name__}.{filename[:-3]}")
