from .big import VALUE

NAME = "n"
