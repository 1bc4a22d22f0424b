from . import opaque

LATE = 1
