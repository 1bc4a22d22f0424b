from . import p142
