from . import p32
