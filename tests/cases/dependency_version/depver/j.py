from depver.i import I  # noqa: F401

J = 1
