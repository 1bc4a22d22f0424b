# R12: the same cycle is harmless when the attribute is read only inside a function body.
from attrpartial import c


def get_x():
    return c.X
