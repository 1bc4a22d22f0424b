"""os.scandir entries, kept by is_file() and a test on the name."""
import importlib
import os

for _e in os.scandir(os.path.dirname(__file__)):
    if _e.is_file() and _e.name.endswith(".py") and _e.name != "__init__.py":
        importlib.import_module(f"{__name__}.{_e.name[:-3]}")

DONE = True
