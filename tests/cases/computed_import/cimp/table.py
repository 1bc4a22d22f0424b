# R20: a loop over a literal dict's items: each module name joined with ".".
import importlib

_PARTS = {"g": "G", "f": "W"}
for mod, attr in _PARTS.items():
    value = getattr(importlib.import_module(".".join(["cimp", mod])), attr)
