from ldef.y import Y

X2 = 2


def make():
    return Y()
