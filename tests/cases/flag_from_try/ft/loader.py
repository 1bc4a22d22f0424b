import importlib

from ft import compat

if compat.HAVE_DIST:
    from ft.plugins.b import MISSING  # not taken: the distribution is not installed

MODULES = tuple(importlib.import_module(f"ft.plugins.{name}") for name in compat.NAMES)
