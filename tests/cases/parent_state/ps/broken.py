# Fails on every import: base has no NOT_THERE.
from .base import NOT_THERE  # noqa: F401
