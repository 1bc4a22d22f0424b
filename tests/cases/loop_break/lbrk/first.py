# the first candidate that imports ends the loop (`else: break`): lbrk.heavy never runs
import importlib

for name in ("lbrk.light", "lbrk.heavy"):
    try:
        found = importlib.import_module(name)
    except ImportError:
        found = None
    else:
        break
DONE = True
