import functools


@functools.singledispatch
def show(x):
    return x


@show.register(int)
def _(x: "Never"):  # noqa: F821 - an explicit class: register reads no annotation
    return x


@show.register
def _(x: "Foo"):  # noqa: F821
    return x


from .things import Foo  # noqa: E402
