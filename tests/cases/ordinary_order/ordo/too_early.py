# imports its reader before the dynamic binding runs: the reader fails in CPython, and
# statically too (no dynamic binding has run yet, so the name is plainly missing)
import inspect

from . import _impl
from . import reads_too_early  # noqa: F401

for _name, _fn in inspect.getmembers(_impl, inspect.isfunction):
    globals()[_name] = _fn
