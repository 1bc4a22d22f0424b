from contextlib import suppress

with suppress(ImportError):
    from .b import X  # noqa: F401
value = X
