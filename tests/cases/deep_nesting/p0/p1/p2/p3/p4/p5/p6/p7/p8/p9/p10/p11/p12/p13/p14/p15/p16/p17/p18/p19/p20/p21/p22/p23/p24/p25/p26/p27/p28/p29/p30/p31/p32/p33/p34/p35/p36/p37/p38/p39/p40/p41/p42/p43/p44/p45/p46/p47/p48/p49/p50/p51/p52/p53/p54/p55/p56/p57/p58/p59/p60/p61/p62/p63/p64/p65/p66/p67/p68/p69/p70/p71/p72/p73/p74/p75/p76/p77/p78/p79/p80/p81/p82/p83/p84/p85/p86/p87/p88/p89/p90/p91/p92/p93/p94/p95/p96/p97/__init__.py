from . import p98
