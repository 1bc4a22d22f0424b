from . import p2
