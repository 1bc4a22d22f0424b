try:
    from . import speedups
except ImportError:
    speedups = None

SPEED = speedups.level if speedups is not None else 0
