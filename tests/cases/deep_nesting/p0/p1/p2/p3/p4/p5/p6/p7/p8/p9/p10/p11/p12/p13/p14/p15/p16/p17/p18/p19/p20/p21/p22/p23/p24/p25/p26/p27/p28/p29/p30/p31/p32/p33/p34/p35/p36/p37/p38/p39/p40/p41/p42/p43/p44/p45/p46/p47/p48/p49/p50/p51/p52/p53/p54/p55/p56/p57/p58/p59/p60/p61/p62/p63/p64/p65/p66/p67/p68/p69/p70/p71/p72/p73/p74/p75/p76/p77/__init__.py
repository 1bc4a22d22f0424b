from . import p78
