from . import p159
