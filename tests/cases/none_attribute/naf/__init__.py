try:
    from . import speedups
except ImportError:
    speedups = None

SPEED = speedups.level
