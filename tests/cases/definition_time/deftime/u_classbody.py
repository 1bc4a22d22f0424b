# R12: entered first, this module is partial while core reads LIMIT through the classbody construct.
from deftime import core  # noqa: F401  (core runs now, before LIMIT is bound)

LIMIT = 5
