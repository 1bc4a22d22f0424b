# R13: `except ImportError` swallows the circular failure whichever side runs first
# (as entry, the failure comes from a's `from tryexcept.b import helper` and a is discarded).
try:
    from tryexcept.a import X
except ImportError:
    X = None


def helper():
    return X
