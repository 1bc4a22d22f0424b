from . import p193
