from . import p150
