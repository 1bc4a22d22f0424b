from . import p58
