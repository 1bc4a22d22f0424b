# imports a module that exists only because hook.py registered it
from . import hook  # noqa: F401
import compat.virtual  # noqa: F401
