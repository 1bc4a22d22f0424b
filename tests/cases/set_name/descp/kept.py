from .fields import SHARED


class Model:
    s = SHARED


KEPT = 1
