import cif
from .base import Mixin


class Path(Mixin):
    def __init__(self, n):
        self.limit = cif.X


EMPTY = Path(0)
