# R12: the same order with the decorator that only reads builtins: fine.
from callb import user_plain  # noqa: F401
from callb import plain  # noqa: F401

VALUE = 1
