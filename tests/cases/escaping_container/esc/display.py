# a list held by a dict display, changed through the dict's entry
import importlib

NAMES = []
TABLE = {"mods": NAMES}
TABLE["mods"].append("esc.back_display")
for n in NAMES:
    importlib.import_module(n)
X = 1
