# Runs `other` (which keeps a reference to this module), binds EARLY, then fails before LATE.
from . import other  # noqa: F401

EARLY = 1
from .base import NOT_THERE_EITHER  # noqa: E402,F401

LATE = 2
