from . import p14
