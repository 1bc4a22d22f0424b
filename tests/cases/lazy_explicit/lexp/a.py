lazy from lexp.b import B  # PEP 810 syntax: parsed and analysed on any Python
lazy import lexp.not_there  # never read, never looked up

A = 1

if A:
    lazy import lexp.c as c_mod


def make():
    return B(), c_mod.C
