from . import p60
