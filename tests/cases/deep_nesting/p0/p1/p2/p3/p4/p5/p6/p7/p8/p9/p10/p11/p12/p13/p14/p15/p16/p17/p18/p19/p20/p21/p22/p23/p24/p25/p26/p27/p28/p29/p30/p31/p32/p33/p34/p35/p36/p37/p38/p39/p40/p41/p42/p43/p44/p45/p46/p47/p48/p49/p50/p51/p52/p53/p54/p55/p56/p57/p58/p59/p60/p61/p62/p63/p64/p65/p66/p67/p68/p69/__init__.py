from . import p70
