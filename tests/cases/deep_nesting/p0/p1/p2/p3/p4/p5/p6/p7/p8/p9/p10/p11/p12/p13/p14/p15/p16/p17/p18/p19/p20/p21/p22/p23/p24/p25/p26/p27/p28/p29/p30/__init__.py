from . import p31
