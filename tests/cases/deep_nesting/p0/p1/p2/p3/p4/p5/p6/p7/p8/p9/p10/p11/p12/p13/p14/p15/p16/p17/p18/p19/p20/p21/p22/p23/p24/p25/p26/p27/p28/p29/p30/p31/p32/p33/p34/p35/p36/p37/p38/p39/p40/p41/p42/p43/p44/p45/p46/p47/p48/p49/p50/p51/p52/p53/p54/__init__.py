from . import p55
