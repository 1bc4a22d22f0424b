from . import p134
