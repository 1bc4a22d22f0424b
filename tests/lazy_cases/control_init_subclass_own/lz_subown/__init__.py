from .base import Expr
from .symbol import Symbol
