from . import base

setattr(base, "N%d" % id(base), 1)

from .base import NEVER  # noqa: E402
