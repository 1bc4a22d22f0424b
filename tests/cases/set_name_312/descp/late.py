from .fields import Late

LATE = 1


class Model:
    f = Late()
