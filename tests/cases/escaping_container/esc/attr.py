# a list kept by an object's attribute, changed through it: the loop sees the change
import importlib

NAMES = []


class Holder:
    pass


h = Holder()
h.items = NAMES
h.items.append("esc.back_attr")
for n in NAMES:
    importlib.import_module(n)
X = 1
