from .base import Expr

class Symbol(Expr):
    pass
