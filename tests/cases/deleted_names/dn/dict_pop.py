from . import base

base.__dict__.pop("X")

from .base import X  # noqa: E402,F401
