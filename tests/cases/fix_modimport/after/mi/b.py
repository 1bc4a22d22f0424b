"""Fails when a is imported first; deferring it would stop `import mi` loading mi.a."""
from . import a


def get():
    return a.X
