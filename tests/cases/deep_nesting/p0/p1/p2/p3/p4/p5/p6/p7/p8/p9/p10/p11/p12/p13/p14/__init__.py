from . import p15
