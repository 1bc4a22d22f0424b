from . import p82
