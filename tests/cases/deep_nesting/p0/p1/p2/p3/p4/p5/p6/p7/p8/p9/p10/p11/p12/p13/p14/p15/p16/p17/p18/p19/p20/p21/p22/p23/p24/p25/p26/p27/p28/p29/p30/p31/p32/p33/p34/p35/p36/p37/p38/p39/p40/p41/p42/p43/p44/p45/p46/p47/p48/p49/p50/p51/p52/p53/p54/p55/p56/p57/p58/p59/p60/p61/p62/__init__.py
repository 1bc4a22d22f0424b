from . import p63
