from . import p129
