from abc import ABC


class Layer(ABC):
    kind = None  # subclasses that set it are filed, and load their users

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.kind is not None:
            TABLE[cls.kind] = cls  # TABLE is bound below: only later subclasses get here
            from . import users_layers


class Static(Layer):  # kind None, inherited from Layer: not filed
    pass


TABLE = {}
