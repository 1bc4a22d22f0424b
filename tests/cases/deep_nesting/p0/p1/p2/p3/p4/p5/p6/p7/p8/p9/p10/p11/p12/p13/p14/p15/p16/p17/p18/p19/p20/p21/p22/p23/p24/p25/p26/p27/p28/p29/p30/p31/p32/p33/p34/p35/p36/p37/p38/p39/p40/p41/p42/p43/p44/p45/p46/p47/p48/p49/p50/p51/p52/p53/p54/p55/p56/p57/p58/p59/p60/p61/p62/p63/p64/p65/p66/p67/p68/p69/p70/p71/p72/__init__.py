from . import p73
