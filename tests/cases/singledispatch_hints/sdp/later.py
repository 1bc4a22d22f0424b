from __future__ import annotations

from functools import singledispatch


@singledispatch
def show(x):
    return x


@show.register
def _(x: Foo):  # noqa: F821 - bound below, after register read it
    return x


from .things import Foo  # noqa: E402
