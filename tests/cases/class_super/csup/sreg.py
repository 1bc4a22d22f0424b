from .suse import OBJ

ITEMS = []
