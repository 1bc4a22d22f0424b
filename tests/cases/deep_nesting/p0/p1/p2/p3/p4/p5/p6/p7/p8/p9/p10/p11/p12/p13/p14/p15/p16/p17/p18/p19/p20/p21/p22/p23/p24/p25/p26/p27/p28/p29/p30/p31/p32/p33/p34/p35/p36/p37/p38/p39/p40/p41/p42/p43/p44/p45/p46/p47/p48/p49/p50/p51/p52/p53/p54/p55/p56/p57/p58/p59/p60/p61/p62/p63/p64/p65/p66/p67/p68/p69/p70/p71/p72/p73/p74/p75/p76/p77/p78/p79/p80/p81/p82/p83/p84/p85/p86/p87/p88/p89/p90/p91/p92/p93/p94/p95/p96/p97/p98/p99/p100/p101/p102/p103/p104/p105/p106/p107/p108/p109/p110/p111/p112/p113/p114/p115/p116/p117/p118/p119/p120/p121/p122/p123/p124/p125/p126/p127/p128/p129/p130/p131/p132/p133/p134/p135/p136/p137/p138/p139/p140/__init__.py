from . import p141
