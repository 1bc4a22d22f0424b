from .base import Base


class Table(dict, Base):
    """dict's __init__ comes first in the MRO: Base's never runs."""


TABLE = Table(a=1)
