from . import p148
