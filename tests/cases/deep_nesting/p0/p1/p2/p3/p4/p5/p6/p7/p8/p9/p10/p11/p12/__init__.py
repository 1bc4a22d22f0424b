from . import p13
