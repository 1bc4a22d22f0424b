# R11: import_module of a running module returns it half-built; reading X fails when a is the entry.
import importlib

a = importlib.import_module("dynimp.a")
Y = a.X
