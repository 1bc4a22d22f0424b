from . import p77
