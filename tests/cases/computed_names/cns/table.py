# R23: names bound by `globals()[k] = ...` in a loop over a literal dict's keys: a module it
# imports first reads one before the loop binds it.
_names = {"red": 1, "green": 2}
from . import uses_table  # noqa: E402

for _n in _names:
    globals()[_n] = _names[_n]
