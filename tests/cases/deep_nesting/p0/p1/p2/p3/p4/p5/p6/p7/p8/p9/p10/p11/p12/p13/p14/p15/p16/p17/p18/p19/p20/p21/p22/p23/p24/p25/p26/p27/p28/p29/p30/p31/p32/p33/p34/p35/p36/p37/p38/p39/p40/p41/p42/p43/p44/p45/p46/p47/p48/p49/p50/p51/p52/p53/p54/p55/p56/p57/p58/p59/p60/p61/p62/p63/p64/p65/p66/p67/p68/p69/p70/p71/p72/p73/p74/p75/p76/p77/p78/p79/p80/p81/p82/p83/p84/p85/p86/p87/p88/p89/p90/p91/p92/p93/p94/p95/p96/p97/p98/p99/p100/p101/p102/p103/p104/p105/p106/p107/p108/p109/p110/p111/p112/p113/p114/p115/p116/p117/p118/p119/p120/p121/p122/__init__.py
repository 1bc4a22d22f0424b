from . import p123
