from . import p186
