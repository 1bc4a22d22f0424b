from . import p93
