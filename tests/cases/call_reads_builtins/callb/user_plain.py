# R12: decorates with the decorator that only reads builtins.
from callb.plain import mark


@mark
def f():
    return 1
