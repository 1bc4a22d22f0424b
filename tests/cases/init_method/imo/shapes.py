import imo


class Path:
    def __init__(self, size, closed=False):
        self.size = size
        self._update()

    @staticmethod
    def _limit():
        return 2

    def _update(self):
        self.threshold = imo.THRESHOLD
        self.limit = self._limit()


EMPTY = Path(0, closed=True)
