from . import p57
