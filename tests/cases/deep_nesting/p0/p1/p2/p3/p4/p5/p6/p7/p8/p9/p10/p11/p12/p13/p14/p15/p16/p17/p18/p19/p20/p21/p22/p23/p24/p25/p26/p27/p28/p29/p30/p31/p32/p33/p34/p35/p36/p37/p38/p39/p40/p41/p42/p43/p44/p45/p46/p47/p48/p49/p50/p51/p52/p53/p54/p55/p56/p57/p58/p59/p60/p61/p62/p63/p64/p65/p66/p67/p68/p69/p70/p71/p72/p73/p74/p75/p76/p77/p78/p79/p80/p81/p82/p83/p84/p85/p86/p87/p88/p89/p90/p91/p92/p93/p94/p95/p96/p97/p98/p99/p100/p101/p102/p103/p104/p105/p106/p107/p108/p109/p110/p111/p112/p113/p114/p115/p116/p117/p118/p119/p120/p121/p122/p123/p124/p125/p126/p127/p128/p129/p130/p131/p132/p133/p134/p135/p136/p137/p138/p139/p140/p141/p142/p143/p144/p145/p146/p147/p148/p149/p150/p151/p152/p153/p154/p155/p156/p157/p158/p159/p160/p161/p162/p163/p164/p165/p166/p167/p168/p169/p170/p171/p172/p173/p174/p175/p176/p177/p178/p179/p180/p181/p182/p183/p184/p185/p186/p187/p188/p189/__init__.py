from . import p190
