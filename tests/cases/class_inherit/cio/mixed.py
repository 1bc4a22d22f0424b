import cio
from .base import Mixin


class Path(Mixin):
    def __init__(self, n):
        self.limit = cio.X


EMPTY = Path(0)
