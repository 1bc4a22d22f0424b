from . import p87
