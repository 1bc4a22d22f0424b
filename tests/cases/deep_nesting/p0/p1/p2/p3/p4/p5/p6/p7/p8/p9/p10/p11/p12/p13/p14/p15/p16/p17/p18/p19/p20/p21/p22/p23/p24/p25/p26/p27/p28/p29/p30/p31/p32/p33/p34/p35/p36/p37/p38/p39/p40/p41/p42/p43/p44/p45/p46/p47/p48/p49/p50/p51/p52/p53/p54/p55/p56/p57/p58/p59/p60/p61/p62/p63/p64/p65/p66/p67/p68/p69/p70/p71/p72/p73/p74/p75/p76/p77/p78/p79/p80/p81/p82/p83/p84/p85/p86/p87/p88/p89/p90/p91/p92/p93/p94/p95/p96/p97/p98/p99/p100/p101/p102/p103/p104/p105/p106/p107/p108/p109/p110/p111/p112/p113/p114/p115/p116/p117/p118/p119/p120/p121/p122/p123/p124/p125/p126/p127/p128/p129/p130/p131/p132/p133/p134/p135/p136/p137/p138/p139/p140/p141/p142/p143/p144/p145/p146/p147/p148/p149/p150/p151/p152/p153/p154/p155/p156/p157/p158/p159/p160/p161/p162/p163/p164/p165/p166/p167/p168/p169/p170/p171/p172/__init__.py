from . import p173
