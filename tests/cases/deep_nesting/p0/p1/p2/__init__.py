from . import p3
