import sys


def load():
    from .module_arg import LATER
    return LATER


def use(module):
    return module.load()


use(sys.modules[__name__])
LATER = 1
