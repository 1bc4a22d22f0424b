from . import p17
