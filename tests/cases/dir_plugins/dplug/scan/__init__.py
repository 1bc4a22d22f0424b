"""A module-level loop over the sorted listing, kept by a test on the name (a pass for a
`__pycache__` CPython may write there does nothing)."""
import importlib
import os

for _entry in sorted(os.listdir(os.path.dirname(os.path.abspath(__file__)))):
    if _entry.endswith(".py") and not _entry.startswith("_"):
        importlib.import_module("." + _entry[:-3], __name__)

VALUE = 1
