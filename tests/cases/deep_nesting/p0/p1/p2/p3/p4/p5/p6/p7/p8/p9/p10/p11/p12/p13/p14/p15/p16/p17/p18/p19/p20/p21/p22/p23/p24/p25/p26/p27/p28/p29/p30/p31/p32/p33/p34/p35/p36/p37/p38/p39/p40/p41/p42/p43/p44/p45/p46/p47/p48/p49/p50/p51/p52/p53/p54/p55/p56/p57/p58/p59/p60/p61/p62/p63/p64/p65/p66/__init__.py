from . import p67
