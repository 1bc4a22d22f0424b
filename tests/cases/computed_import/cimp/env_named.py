# R20: a module name from the environment: the variable unset (the ordinary environment), its default.
import importlib
import os

importlib.import_module(os.environ.get("CIMP_TARGET", "cimp.f"))
