from . import p53
