# a library function that changes the list it is passed
import bisect
import importlib

NAMES = []
bisect.insort(NAMES, "esc.back_external")
for n in NAMES:
    importlib.import_module(n)
X = 1
