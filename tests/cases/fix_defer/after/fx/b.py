"""The import of A is the one to defer: only use() reads it."""
# needed by use()


def use():
    """Return A."""
    from .a import A
    return A + 1
