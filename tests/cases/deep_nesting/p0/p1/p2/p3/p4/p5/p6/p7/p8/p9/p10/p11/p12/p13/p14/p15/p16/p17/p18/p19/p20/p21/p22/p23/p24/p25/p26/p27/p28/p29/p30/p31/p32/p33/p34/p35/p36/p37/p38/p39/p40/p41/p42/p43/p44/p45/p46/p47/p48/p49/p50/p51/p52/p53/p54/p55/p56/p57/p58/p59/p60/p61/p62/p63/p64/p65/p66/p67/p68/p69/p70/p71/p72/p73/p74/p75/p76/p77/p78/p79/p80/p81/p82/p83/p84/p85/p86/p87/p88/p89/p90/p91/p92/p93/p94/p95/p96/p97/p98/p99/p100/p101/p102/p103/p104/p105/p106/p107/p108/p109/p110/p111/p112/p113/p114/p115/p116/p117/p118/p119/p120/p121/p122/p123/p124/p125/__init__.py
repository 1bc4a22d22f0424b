from . import p126
