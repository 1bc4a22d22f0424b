import cif


class Base:
    def __init__(self, n):
        self.threshold = cif.X


class Mixin:
    """No __init__ of its own."""


class Named:
    @classmethod
    def describe(cls):
        return cif.X
