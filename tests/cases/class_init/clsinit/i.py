import os

import clsinit


class Probe:
    def __init__(self, where):
        if where:  # depends on the argument, not known statically
            self.x = clsinit._c.X


HERE = Probe(os.getcwd())
