from . import p114
