# R12: entered first, this module is partial while core reads register through the decorator construct.
from deftime import core  # noqa: F401  (core runs now, before register is bound)

def register(func):
    return func
