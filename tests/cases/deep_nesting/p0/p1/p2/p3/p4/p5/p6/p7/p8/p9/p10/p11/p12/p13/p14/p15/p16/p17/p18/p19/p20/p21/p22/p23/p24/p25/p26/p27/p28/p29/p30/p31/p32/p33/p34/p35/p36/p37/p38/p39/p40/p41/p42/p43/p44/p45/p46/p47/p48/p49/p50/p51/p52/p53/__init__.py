from . import p54
