from . import VALUE

DOUBLE = VALUE * 2
