from . import p25
