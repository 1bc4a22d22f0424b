# R12: entered first, this module is partial while user_shadowing's decoration runs
# shadowing.setattr, which imports VALUE from here: ImportError.
from callb import user_shadowing  # noqa: F401

VALUE = 1
