from . import p84
