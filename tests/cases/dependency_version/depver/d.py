from depver.c import C  # noqa: F401

D = 1
