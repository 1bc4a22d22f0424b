"""core imports helpers before defining Core."""
from .helpers import helper

class Core:
    pass
