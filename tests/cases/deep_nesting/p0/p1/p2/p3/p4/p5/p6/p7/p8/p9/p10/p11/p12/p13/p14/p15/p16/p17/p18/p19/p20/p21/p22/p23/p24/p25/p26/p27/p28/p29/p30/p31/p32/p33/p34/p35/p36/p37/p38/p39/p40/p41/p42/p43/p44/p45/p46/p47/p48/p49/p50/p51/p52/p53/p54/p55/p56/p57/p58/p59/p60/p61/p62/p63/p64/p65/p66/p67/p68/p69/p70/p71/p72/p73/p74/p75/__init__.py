from . import p76
