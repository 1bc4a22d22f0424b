from . import p168
