# R23: setattr(sys.modules[__name__], f"get_{s}", ...) in a loop over a literal tuple
import sys

from . import attrs_user  # noqa: F401

for s in ("one", "two"):
    setattr(sys.modules[__name__], f"get_{s}", len)
