from . import p16
