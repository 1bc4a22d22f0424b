from . import p113
