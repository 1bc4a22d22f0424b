from jl.cyc import LATE  # noqa: F401

VALUE = 2
