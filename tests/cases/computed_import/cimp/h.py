# R20: the other half of loop's cycle.
from cimp.loop import L  # noqa: F401
