import importlib

importlib.import_module("lel.back_dyn")  # the dynamic API is never lazy
D = 1
