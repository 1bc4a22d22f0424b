X = 1
from . import shapes, mixed, named
