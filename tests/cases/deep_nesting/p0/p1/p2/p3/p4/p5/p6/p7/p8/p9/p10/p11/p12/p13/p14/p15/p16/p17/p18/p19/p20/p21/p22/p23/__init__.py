from . import p24
