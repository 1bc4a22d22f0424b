import importlib

from ftf import compat

if compat.HAVE_DIST:
    from ftf.plugins.b import MISSING  # not taken: the distribution is not installed

MODULES = tuple(importlib.import_module(f"ftf.plugins.{name}") for name in compat.NAMES)
