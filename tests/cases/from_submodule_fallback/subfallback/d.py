# R5/R8: `from . import c` while c is running succeeds through the sys.modules fallback.
from . import c

VALUE = "d"


def partner():
    return c.VALUE
