import importlib

from lcf import plugins

NAMES: tuple[str, ...] = ("alpha", "gamma", "beta")

MODULES = tuple(importlib.import_module(f".{name}", package=plugins.__name__) for name in NAMES)
EAGER = [importlib.import_module("lcf.plugins." + name) for name in ["beta"]]
