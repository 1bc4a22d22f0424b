from . import p80
