from . import p92
