from . import p10
