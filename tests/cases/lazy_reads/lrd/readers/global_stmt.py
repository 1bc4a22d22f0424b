from lrd.target import VALUE


def f():
    global VALUE
    return VALUE


X = f()  # reads the module global: loads lrd.target
