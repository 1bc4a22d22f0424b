# R12: decorates with the decorator whose `setattr` is a module global.
from callb.shadowing import mark


@mark
def f():
    return 1
