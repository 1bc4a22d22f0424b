from . import p102
