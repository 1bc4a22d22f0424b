from . import p111
