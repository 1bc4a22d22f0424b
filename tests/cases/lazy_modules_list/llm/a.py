__lazy_modules__ = ["llm.b"]  # PEP 810 (3.15+): imports of llm.b are lazy

from llm.b import B  # lazy: listed

A = 1

from llm.c import C  # noqa: E402 - eager: not listed (entered from here, the cycle works)


def make():
    return B(), C
