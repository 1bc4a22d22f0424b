from .meta import NewMeta


class Shape(metaclass=NewMeta):
    pass


SHAPES = 1
