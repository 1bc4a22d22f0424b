from . import p39
