from . import p7
