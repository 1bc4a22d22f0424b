from . import p21
