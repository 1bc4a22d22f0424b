from . import p199
