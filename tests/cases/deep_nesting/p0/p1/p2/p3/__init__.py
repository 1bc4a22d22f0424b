from . import p4
