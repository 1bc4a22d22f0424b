# R20: the other half of c's cycle.
from cimp.c import Z  # noqa: F401
