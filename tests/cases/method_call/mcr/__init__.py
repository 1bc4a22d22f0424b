X = 1
from . import base
