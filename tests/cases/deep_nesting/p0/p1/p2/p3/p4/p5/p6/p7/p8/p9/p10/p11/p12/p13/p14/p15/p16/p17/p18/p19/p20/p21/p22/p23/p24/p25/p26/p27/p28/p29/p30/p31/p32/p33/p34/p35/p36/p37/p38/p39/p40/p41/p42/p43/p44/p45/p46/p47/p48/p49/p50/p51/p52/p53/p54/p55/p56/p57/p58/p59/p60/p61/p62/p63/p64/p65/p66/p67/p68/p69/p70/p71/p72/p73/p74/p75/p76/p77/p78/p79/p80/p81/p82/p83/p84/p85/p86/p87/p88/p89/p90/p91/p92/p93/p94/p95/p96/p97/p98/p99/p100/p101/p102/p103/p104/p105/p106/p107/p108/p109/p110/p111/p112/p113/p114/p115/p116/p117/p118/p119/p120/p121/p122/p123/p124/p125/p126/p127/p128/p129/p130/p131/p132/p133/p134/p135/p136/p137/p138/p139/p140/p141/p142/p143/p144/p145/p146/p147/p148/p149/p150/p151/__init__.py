from . import p152
