from . import p71
