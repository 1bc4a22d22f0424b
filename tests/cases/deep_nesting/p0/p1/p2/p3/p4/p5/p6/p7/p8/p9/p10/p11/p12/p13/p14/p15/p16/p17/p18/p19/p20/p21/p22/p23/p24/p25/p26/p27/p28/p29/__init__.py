from . import p30
