from contextlib import suppress

with suppress(ImportError):
    from .a import X  # noqa: F401
DONE = True
