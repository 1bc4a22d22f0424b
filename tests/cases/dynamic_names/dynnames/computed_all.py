# __all__ computed at run time: a star import binds names nobody can list statically
_table = {"red": 1, "green": 2}
__all__ = ["BLUE"]
__all__ += list(_table)
BLUE = 0
red = 1
green = 2
