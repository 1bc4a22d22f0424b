# reads ufuncs.add (ufuncs finished: taken as bound), then enters a cycle that fails:
# cycle_back reads LATE_VALUE before it is bound
from . import ufuncs

PLUS = ufuncs.add
from .cycle_back import BACK  # noqa: E402,F401

LATE_VALUE = 1
