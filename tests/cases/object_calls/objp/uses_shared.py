from .shared import LOADER

LOADER.load()
USED = 1
