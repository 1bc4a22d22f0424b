"""Fails when a is imported first; deferring it would stop `import mi` loading mi.a."""
from .a import X


def get():
    return X
