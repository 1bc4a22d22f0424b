from . import p18
