"""left needs Right at import time (a base class) ..."""
from .right import Right


class Left(Right):
    pass
