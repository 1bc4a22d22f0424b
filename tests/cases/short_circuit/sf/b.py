ENABLED = True

from . import c

LATE = 1
