from .a import X  # noqa: F401
