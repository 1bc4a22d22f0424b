"""Lists another directory than its own: not read at check time, so unknown."""
import importlib
import os

for _name in sorted(os.listdir(os.path.join(os.path.dirname(__file__), ".."))):
    if _name == "cmds":
        importlib.import_module("dplug." + _name)
