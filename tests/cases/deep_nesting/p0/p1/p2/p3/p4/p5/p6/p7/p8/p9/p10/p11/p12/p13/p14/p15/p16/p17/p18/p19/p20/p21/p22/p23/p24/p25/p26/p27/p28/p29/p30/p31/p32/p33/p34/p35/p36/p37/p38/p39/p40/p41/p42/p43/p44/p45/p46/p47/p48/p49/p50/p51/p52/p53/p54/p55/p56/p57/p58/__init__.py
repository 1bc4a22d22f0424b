from . import p59
