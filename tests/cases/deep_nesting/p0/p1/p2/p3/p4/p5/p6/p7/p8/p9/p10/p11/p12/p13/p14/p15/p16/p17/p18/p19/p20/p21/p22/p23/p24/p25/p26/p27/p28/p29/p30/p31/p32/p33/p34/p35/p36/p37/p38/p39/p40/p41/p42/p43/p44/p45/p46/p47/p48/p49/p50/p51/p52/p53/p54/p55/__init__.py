from . import p56
