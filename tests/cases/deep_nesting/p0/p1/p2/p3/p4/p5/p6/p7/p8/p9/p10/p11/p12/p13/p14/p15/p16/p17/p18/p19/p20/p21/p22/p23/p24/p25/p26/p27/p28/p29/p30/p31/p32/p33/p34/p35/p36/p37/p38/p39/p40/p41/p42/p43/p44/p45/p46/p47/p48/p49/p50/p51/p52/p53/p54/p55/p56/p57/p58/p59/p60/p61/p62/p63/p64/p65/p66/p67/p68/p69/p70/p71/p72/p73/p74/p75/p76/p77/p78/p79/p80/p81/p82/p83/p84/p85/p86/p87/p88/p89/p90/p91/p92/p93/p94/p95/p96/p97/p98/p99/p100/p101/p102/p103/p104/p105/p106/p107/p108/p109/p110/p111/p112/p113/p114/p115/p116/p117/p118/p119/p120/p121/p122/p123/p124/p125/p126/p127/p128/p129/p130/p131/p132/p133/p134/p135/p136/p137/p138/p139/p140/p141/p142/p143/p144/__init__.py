from . import p145
