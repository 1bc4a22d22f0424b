from .mro import Both

OBJ = Both()
