from contextlib import suppress

with suppress(KeyError):
    from .a import X  # noqa: F401
