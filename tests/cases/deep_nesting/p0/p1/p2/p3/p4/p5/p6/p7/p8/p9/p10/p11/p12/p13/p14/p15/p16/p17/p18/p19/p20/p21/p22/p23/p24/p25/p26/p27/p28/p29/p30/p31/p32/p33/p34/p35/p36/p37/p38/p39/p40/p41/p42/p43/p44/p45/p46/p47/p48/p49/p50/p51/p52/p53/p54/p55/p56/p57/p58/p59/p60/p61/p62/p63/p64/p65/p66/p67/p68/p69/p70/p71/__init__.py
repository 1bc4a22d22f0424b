from . import p72
