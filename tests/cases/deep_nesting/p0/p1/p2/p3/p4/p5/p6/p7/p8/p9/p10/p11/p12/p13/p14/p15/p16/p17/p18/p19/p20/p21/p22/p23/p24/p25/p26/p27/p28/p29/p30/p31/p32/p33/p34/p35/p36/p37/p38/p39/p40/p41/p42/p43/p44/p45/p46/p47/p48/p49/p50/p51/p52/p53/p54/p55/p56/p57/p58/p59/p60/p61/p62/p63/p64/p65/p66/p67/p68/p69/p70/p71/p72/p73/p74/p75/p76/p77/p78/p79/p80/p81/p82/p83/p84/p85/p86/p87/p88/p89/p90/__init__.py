from . import p91
