from . import p177
