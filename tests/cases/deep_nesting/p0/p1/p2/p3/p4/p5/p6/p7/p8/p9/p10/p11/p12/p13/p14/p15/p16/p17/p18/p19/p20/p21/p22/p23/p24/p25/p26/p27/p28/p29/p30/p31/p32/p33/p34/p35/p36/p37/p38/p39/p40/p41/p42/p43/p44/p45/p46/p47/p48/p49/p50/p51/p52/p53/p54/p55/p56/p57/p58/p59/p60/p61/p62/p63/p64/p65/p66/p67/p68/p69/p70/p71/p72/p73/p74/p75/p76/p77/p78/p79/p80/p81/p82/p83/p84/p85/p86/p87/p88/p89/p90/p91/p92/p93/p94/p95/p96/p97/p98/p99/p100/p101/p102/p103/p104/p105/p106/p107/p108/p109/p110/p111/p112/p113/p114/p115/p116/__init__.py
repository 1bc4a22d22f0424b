from . import p117
