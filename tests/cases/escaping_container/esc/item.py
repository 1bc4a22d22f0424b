# a list stored under a key, changed through the item
import importlib

NAMES = []
BY_KIND = {}
BY_KIND["plugins"] = NAMES
BY_KIND["plugins"].append("esc.back_item")
for n in NAMES:
    importlib.import_module(n)
X = 1
