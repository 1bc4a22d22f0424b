# R12: imports both plugin modules before KINDS is bound.
from classbody import lazyuse, eageruse  # noqa: F401

KINDS = ("alpha", "beta")
