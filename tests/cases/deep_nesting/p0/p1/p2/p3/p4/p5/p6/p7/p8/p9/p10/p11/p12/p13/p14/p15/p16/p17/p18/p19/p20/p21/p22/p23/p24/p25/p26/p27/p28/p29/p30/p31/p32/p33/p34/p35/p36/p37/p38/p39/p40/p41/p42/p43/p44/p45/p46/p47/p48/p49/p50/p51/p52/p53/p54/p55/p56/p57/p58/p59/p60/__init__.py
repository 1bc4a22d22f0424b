from . import p61
