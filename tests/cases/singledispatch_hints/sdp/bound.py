from __future__ import annotations

from functools import singledispatch


class Foo:
    pass


@singledispatch
def show(x):
    return x


@show.register
def _(x: Foo) -> None:
    return x
