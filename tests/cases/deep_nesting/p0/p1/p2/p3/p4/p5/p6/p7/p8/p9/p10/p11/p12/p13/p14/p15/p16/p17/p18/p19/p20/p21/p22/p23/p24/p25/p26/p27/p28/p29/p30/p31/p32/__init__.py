from . import p33
