from . import p122
