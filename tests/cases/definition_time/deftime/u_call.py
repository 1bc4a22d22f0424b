# R12: entered first, this module is partial while core reads FLAG through the call construct.
from deftime import core  # noqa: F401  (core runs now, before FLAG is bound)

FLAG = True
