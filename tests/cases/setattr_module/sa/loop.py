from . import base

for _name in ("A", "B"):
    setattr(base, _name, _name.lower())

from .base import B  # noqa: E402
