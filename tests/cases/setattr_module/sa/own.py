import sys

this = sys.modules[__name__]
for _n in ("P", "Q"):
    setattr(this, _n, 1)
TOTAL = P + Q  # noqa: F821
