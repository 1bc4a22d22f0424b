from . import p151
