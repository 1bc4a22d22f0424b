from . import a
