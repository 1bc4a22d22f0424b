from .layers import Layer


class Fast(Layer):
    kind = "fast"


LAYERED = 1
