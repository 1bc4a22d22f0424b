from . import p110
