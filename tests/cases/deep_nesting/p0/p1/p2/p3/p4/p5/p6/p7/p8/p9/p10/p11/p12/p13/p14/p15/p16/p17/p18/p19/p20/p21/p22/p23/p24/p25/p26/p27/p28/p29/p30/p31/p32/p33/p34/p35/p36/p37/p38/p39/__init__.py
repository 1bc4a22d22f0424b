from . import p40
