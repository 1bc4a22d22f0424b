# R20: a module name from the environment cannot be evaluated statically: unknown.
import importlib
import os

importlib.import_module(os.environ.get("CIMP_TARGET", "cimp.f"))
