# R26: the other half of plug_cycle's cycle.
from cnaffix.plug_cycle import VALUE  # noqa: F401
