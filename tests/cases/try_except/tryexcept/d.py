# R13: `except ImportError` does not catch the AttributeError raised by reading c.X mid-cycle.
from tryexcept import c

try:
    Y = c.X
except ImportError:
    Y = None
