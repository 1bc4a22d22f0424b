# R12: entered first, this module is partial while core reads Base through the base construct.
from deftime import core  # noqa: F401  (core runs now, before Base is bound)

class Base:
    """A base class."""
