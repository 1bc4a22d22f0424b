# R28: the other half of compat_cycle's cycle.
from cncompat.compat_cycle import DONE  # noqa: F401
