# R20: a loop over a literal tuple imports each name: h runs now and reads L too early.
import importlib

for n in ("g", "h"):
    importlib.import_module("cimp." + n)
L = 1
