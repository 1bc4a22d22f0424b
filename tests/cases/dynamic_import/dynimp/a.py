# R11: importlib.import_module at top level behaves like an import statement (b runs now).
import importlib

partner = importlib.import_module("dynimp.b")

X = "a"
