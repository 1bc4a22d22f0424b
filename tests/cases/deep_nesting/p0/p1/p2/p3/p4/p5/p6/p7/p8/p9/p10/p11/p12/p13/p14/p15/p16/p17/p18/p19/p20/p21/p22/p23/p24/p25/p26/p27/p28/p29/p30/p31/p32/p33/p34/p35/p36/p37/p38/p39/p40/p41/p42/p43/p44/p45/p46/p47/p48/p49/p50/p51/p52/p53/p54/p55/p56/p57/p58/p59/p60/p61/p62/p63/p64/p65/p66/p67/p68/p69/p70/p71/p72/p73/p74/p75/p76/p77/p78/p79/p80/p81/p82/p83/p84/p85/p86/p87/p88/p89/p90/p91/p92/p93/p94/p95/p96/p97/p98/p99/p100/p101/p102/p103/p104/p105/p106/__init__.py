from . import p107
