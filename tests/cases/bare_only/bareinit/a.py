# bare: imports b before A is bound; b needs A at import time.
from . import b

A = "a"


def partner():
    return b.B
