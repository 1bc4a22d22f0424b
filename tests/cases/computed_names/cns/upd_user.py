from .upd import height
