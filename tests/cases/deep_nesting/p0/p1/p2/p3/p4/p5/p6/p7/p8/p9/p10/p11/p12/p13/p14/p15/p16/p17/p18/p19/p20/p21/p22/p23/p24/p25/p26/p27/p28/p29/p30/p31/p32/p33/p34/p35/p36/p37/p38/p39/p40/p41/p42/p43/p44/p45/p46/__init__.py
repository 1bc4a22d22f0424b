from . import p47
