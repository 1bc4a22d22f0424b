# R20: a relative import_module of a .format-ted name, anchored on __package__: no cycle.
import importlib

f = importlib.import_module(".{}".format("f"), __package__)
V = f.W
