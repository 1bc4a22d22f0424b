from . import p34
