# R11: import_module returns sys.modules['dynimp.c'] even while c runs; X is already bound: ok.
import importlib

Z = importlib.import_module("dynimp.c").X
