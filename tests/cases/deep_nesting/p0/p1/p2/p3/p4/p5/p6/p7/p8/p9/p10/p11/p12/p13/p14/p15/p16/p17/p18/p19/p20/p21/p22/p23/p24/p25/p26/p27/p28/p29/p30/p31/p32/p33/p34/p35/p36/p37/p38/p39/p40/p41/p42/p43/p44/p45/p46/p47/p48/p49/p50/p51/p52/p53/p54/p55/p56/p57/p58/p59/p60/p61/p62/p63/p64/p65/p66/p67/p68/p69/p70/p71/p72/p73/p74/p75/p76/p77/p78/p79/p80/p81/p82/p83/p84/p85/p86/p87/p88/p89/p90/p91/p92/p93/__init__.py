from . import p94
