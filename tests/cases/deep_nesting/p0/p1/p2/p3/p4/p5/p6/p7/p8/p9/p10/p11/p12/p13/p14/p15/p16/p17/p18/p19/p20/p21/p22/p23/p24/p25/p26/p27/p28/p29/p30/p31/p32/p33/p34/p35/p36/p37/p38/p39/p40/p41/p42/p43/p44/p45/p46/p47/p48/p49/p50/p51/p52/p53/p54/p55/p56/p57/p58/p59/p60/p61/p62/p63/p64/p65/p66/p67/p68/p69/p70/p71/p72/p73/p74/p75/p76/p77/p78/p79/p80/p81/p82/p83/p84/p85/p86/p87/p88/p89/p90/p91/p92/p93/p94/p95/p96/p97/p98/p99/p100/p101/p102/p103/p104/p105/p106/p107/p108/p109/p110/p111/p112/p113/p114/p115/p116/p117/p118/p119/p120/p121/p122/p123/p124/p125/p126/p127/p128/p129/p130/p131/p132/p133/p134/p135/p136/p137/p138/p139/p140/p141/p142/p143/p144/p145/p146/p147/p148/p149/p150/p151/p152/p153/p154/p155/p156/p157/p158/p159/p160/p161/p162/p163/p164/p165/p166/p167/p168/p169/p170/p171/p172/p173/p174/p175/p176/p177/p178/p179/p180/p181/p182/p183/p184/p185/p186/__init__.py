from . import p187
