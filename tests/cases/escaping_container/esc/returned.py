# a list a function returns, changed by its caller
import importlib

NAMES = []


def names():
    return NAMES


names().append("esc.back_returned")
for n in NAMES:
    importlib.import_module(n)
X = 1
