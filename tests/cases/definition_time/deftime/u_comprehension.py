# R12: entered first, this module is partial while core reads FACTOR through the comprehension construct.
from deftime import core  # noqa: F401  (core runs now, before FACTOR is bound)

FACTOR = 2
