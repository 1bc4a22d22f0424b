from . import p36
