import cio


class Base:
    def __init__(self, n):
        self.threshold = cio.X


class Mixin:
    """No __init__ of its own."""


class Named:
    @classmethod
    def describe(cls):
        return cio.X
