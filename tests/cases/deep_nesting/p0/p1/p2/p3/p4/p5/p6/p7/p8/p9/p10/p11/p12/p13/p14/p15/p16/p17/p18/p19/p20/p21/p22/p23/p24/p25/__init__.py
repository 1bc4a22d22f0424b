from . import p26
