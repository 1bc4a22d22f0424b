from . import p124
