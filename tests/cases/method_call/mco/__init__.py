X = 1
from . import artist
