from . import p45
