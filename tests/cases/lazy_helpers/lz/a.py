from lz import compute  # noqa: F401
