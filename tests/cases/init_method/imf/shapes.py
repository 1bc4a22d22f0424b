import imf


class Path:
    def __init__(self, size, closed=False):
        self.size = size
        self._update()

    def _update(self):
        self.threshold = imf.THRESHOLD  # read while imf runs its first line


EMPTY = Path(0)
