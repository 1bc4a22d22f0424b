import contextlib as cl

with cl.suppress(KeyError, ImportError):
    from . import a  # noqa: F401
DONE = True
