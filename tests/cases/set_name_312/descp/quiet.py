from .fields import Quiet


class Model:
    f = Quiet()
    g = Quiet()
