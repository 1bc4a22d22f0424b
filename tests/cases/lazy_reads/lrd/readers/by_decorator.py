from lrd.target import deco


@deco
def f():
    pass
