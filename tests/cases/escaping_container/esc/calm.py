# builtins that neither change nor keep a list leave it known: the loop imports nothing
import importlib

NAMES = []
COUNT = len(NAMES)
ORDERED = sorted(NAMES)
for n in NAMES:
    importlib.import_module(n)
X = 1
