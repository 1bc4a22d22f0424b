from .base import Named


class Label(Named):
    """Inherits describe()."""


Label.describe()
