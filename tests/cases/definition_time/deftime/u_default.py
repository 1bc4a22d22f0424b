# R12: entered first, this module is partial while core reads DEFAULT through the default construct.
from deftime import core  # noqa: F401  (core runs now, before DEFAULT is bound)

DEFAULT = 10
