class Holder:
    X = 1


del Holder.X
from .base import X  # noqa: E402,F401
