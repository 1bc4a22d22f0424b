from .marked import MARKED
