"""The import of A is the one to defer: only use() reads it."""
from .a import A  # needed by use()


def use():
    """Return A."""
    return A + 1
