from . import p1
