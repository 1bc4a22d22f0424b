from . import p50
