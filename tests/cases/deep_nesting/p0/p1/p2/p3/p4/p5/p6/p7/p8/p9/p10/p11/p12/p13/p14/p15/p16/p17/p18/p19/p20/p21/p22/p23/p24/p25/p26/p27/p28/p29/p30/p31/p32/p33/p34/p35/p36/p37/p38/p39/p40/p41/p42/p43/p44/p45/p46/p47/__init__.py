from . import p48
