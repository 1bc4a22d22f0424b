# R5/R8: relative `from . import sub` in a cycle; same fallback as the absolute form.
from . import d

VALUE = "c"


def partner():
    return d.VALUE
