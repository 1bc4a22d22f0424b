from . import p157
