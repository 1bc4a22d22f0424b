from . import p41
