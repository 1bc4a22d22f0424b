# R12: entered first, this module is partial while core reads SUFFIX through the fstring construct.
from deftime import core  # noqa: F401  (core runs now, before SUFFIX is bound)

SUFFIX = "x"
