from . import p139
