import importlib

from lc import plugins

NAMES: tuple[str, ...] = ("alpha", "beta")

MODULES = tuple(importlib.import_module(f".{name}", package=plugins.__name__) for name in NAMES)
EAGER = [importlib.import_module("lc.plugins." + name) for name in ["beta"]]
