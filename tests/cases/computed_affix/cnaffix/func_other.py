# R26: plug_func's partner, reading a name plug_func binds before importing it.
from cnaffix.plug_func import PLUGINS  # noqa: F401
