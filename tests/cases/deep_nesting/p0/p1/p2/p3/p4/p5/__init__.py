from . import p6
