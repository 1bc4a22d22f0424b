# R12: entered first, this module is partial while core reads Meta through the metaclass construct.
from deftime import core  # noqa: F401  (core runs now, before Meta is bound)

class Meta(type):
    """A metaclass."""
