class Shape:
    kinds = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        Shape.kinds[cls.__name__.lower()] = cls


def shape(kind):
    return Shape.kinds[kind]()
