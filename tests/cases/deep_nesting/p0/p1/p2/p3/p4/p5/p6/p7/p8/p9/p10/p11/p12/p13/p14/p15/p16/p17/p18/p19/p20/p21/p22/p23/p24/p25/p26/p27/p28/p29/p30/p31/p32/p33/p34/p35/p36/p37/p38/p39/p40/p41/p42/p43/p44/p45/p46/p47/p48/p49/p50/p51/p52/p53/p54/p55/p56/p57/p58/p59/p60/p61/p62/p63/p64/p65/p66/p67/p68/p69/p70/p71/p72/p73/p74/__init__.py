from . import p75
