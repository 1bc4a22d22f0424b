from . import base

for _name in ("X", "TEMP"):
    vars(base).pop(_name, None)

from .base import TEMP  # noqa: E402,F401
