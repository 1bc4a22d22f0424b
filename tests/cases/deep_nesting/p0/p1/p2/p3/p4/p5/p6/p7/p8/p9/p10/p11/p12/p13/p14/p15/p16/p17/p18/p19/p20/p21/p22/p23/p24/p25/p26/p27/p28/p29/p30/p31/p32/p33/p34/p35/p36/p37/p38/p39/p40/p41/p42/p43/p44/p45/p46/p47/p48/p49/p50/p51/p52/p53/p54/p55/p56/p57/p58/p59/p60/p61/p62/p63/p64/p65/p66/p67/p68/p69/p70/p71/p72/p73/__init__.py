from . import p74
