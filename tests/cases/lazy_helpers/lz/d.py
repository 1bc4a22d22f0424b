from lz import nothing  # noqa: F401
