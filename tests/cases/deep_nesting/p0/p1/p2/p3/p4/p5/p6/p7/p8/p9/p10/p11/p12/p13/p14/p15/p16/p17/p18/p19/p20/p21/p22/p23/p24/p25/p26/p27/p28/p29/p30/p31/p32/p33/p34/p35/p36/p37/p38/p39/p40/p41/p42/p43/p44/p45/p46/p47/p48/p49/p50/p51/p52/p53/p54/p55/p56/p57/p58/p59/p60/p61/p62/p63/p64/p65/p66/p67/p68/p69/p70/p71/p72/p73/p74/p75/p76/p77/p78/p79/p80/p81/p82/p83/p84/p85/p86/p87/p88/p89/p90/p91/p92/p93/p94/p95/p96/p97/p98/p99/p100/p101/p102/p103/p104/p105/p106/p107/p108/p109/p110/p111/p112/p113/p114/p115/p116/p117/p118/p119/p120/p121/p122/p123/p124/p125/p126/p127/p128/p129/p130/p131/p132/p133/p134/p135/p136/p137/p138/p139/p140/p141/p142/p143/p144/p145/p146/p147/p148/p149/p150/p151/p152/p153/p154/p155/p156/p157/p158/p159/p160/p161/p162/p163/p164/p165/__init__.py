from . import p166
