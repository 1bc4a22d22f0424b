from . import p115
