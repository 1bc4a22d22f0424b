from .late import LATE_VALUE

BACK = LATE_VALUE
