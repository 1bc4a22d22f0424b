from . import shapes
VALUE = 1
