from .deep import LATE

ROWS = LATE
