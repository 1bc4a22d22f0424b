from . import p43
