from . import p11
