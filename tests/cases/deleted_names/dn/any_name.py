from . import base

for _name in sorted(vars(base)):
    if _name.isupper():
        delattr(base, _name)

from .base import X  # noqa: E402,F401
