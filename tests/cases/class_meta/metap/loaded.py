import os

from .plugin import Loader

LOADER = Loader(os.getcwd())  # an argument not known statically: the __init__ still imports
LOADED = 1
