from . import p79
