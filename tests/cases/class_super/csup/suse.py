from .sup import B

OBJ = B()
