from . import p108
