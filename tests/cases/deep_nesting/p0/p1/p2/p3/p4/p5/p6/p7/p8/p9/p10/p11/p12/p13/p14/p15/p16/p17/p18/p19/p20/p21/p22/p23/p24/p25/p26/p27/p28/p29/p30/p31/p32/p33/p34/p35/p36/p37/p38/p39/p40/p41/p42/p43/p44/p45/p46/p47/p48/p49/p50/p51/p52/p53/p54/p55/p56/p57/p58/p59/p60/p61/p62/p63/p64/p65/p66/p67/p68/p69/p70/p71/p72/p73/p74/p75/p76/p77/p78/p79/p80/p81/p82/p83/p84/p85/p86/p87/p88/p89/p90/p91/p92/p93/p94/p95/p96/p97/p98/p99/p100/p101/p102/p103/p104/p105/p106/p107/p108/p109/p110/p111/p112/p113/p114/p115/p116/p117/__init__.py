from . import p118
