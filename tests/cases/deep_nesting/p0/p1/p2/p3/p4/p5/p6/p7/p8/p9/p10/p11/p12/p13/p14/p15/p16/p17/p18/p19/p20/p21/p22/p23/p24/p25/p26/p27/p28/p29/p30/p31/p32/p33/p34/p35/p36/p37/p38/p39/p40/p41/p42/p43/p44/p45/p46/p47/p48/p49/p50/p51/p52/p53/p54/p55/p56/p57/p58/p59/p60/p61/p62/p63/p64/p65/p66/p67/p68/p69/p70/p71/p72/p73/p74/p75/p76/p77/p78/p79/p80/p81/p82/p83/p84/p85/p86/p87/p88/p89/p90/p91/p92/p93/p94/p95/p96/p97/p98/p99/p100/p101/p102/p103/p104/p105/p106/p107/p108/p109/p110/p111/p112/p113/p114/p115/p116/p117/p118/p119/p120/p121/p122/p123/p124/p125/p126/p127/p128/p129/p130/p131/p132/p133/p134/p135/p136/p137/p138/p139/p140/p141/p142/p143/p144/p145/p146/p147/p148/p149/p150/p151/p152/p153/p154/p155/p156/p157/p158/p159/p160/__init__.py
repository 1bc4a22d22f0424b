from . import p161
