from . import b

FLAG = b.ENABLED and b.LATE
LATER = hasattr(b, "LATE") and b.LATE
