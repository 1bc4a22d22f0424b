from . import p66
