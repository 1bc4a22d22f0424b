from lrd.target import VALUE


def f():
    VALUE = 2  # a local of the same name is not the lazy global
    return VALUE


X = f()
