from . import p68
