from lz import same  # noqa: F401
