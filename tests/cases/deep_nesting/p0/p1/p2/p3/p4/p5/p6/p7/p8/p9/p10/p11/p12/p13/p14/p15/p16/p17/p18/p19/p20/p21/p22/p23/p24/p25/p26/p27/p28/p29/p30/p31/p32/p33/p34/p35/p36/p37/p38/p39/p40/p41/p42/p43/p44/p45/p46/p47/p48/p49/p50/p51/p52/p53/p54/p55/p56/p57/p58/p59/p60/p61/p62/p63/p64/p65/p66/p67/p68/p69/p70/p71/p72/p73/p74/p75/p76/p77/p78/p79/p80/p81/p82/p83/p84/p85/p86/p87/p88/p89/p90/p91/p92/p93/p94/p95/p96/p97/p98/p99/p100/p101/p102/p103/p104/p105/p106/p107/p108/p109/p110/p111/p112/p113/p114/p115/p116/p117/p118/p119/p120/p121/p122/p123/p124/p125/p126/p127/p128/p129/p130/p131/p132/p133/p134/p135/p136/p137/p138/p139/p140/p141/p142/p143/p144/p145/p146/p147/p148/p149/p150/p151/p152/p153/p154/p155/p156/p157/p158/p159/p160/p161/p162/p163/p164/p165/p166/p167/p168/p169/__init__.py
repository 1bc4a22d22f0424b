from . import p170
