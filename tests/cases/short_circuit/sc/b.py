ENABLED = False

from . import c

LATE = 1
