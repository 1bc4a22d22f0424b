from . import p12
