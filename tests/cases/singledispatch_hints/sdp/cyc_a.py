from __future__ import annotations

import importlib
from functools import singledispatch

cyc_b = importlib.import_module("sdp.cyc_b")


@singledispatch
def show(x):
    return x


@show.register
def _(x: cyc_b.Thing):
    return x
