from . import p100
