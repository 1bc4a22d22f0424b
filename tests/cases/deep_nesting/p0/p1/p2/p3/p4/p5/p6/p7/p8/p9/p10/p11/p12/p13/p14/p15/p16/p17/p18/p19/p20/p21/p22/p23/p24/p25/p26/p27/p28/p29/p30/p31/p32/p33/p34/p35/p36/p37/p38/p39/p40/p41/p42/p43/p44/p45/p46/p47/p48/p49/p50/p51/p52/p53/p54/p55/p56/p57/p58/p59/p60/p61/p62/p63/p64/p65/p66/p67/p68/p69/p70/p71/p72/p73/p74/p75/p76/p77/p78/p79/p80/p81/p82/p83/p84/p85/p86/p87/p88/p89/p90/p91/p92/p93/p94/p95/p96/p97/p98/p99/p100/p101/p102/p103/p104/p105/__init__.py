from . import p106
