from . import p140
