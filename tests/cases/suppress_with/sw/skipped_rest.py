from contextlib import suppress

with suppress(ImportError):
    from .a import X  # noqa: F401
    AFTER = 1
value = AFTER
