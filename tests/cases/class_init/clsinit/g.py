import sys
import types

import clsinit


class Module(types.ModuleType):
    def __init__(self, name):
        super().__init__(name)
        self.x = clsinit._c.X  # in bare mode the package never imported _c


sys.modules[__name__] = Module(__name__)
