from . import p35
