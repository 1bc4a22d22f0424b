from . import shapes
THRESHOLD = 1
