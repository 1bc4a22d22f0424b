from . import p188
