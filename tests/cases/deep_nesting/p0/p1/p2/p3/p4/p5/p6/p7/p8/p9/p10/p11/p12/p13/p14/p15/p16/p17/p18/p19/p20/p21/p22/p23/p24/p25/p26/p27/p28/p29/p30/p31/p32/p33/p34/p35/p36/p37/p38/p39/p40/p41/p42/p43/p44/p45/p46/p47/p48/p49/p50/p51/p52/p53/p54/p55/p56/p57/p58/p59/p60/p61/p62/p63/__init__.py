from . import p64
