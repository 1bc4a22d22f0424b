from . import p23
