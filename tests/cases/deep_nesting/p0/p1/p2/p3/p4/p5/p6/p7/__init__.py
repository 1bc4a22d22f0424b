from . import p8
