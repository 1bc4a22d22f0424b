import os

import clsinit


class Shape:
    def __init__(self, vertices, closed=False):
        self.vertices = vertices
        if closed:  # a default: decided
            self.closed = True
        self._update()

    def _update(self):
        self.x = clsinit._c.X  # bare: the package's __init__, which imports _c, never ran


EMPTY = Shape(os.getcwd())  # an argument not known: what every path reads is still read
