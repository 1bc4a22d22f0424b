from . import p38
