from . import base

del base.X

from .base import X  # noqa: E402,F401
