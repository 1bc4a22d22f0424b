from . import p194
