class Loader:
    def __init__(self, n):
        from . import plugin  # its module-level calls run as in any import


Loader(1)
