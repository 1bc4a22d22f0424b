from lrd.target import VALUE


def later():
    return VALUE
