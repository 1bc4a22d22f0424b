from . import p52
