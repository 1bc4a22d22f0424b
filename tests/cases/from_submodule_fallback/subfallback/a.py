# R5: absolute `from pkg import sub` in a cycle; a is partial while b runs.
from subfallback import b

VALUE = "a"


def partner():
    return b.VALUE
