from . import p37
