from . import p125
