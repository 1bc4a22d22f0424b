from . import p49
