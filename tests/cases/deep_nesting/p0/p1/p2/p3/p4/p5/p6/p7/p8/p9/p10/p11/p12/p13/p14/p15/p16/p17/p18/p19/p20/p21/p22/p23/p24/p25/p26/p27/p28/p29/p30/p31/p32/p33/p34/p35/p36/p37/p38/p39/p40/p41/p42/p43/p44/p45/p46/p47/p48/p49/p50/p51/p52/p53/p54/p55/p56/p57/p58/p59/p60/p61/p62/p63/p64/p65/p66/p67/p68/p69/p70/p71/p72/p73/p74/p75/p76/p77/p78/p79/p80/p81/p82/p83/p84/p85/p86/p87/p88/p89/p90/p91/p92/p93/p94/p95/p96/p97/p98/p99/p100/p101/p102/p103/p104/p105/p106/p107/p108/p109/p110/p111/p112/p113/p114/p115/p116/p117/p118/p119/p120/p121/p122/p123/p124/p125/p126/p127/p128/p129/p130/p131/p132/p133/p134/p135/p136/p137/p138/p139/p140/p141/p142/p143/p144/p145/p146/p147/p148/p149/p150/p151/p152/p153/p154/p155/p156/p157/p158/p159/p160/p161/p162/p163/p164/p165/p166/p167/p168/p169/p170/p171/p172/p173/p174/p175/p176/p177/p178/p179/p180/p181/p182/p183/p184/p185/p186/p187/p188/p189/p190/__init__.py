from . import p191
