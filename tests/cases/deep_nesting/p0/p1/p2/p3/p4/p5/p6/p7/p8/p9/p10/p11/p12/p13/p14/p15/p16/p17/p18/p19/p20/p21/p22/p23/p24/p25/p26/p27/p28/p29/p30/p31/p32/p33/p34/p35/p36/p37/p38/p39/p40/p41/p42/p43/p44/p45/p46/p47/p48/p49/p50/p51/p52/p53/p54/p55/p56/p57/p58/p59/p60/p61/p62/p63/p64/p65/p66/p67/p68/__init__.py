from . import p69
