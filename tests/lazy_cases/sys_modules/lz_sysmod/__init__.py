from . import aliases
