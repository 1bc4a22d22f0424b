from .utils import import_submodule

lowerings = {}


def register(name):
    def wrap(fn):
        lowerings[name] = fn
        return fn
    return wrap


from . import kernel

import_submodule(kernel)

LATE = len(lowerings)
