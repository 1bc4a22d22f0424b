from . import p88
