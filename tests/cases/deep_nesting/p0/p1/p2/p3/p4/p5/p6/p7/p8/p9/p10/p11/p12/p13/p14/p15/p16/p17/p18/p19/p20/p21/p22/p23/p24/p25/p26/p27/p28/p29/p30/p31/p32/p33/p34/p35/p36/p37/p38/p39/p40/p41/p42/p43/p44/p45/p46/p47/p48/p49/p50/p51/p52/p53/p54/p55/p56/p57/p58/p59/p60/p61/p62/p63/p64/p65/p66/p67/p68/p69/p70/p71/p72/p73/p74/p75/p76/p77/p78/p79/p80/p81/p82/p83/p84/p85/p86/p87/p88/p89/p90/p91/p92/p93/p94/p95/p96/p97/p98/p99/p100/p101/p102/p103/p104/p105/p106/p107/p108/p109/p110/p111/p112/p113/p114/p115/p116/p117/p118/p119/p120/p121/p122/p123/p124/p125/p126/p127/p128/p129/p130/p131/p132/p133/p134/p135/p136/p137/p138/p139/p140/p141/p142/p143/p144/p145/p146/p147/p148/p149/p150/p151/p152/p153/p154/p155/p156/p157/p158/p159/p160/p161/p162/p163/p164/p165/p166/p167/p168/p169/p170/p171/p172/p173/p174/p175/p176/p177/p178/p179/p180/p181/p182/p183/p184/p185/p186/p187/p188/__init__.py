from . import p189
