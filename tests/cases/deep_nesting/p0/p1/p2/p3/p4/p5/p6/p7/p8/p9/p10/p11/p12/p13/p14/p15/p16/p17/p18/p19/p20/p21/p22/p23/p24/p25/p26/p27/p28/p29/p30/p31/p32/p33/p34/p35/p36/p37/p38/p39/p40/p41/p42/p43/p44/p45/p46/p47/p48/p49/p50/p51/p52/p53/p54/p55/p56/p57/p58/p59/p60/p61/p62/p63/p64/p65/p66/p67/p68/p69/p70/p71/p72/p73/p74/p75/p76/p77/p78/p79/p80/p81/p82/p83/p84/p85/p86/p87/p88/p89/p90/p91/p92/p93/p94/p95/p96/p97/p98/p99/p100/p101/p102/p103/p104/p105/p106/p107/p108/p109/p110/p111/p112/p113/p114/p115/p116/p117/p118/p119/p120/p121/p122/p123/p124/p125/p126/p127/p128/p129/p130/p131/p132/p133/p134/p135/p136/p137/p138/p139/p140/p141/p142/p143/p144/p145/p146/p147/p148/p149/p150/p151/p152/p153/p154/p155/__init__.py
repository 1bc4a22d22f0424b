from . import p156
