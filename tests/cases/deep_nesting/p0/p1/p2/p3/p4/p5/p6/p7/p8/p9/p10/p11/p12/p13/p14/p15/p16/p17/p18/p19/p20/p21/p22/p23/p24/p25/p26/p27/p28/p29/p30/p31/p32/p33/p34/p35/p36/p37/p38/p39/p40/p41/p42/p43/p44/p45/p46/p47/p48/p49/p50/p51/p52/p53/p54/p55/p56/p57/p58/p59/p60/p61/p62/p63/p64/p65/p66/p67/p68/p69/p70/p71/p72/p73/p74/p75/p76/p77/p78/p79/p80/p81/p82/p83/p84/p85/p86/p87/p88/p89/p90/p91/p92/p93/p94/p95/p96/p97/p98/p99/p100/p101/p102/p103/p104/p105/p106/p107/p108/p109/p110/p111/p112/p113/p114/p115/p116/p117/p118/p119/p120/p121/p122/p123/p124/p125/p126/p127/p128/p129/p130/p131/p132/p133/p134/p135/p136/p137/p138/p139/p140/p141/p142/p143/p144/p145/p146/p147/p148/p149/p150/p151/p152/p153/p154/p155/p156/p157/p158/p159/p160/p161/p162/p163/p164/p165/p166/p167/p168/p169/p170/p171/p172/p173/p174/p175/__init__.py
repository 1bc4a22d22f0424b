from . import p176
