from . import p9
