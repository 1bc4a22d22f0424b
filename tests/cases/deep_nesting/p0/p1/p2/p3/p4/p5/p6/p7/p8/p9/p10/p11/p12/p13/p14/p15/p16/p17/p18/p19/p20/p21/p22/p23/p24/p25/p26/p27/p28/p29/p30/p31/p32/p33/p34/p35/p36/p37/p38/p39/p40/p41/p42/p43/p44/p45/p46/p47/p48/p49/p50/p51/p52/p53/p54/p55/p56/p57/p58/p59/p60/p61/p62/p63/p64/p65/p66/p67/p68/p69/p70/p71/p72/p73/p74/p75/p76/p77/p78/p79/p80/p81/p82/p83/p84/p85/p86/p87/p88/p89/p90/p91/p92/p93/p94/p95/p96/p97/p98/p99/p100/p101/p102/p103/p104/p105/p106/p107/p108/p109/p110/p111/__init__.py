from . import p112
