from lrd.target import VALUE


def f(x=VALUE):
    return x
