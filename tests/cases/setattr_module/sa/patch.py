from . import base

setattr(base, "EXTRA", 2)

from .base import EXTRA  # noqa: E402
