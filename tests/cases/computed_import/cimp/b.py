# R20: the other half of a's cycle.
from cimp.a import X  # noqa: F401
