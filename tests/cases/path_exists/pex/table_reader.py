from .table import LATE

ROWS = LATE
