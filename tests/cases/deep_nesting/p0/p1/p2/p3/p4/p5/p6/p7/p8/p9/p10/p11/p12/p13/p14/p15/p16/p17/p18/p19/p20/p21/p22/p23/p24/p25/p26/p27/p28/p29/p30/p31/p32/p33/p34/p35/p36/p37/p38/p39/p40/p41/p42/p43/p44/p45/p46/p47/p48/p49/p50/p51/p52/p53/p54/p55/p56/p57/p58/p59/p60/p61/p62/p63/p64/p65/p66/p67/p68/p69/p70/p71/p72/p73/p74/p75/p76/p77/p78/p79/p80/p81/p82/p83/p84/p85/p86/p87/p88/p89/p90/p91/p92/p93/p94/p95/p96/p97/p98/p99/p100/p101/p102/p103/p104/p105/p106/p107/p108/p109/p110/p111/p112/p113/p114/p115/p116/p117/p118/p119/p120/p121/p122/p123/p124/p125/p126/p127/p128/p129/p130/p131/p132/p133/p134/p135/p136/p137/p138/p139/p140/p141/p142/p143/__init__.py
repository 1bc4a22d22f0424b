from . import p144
