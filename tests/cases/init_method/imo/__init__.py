THRESHOLD = 1
from . import shapes
