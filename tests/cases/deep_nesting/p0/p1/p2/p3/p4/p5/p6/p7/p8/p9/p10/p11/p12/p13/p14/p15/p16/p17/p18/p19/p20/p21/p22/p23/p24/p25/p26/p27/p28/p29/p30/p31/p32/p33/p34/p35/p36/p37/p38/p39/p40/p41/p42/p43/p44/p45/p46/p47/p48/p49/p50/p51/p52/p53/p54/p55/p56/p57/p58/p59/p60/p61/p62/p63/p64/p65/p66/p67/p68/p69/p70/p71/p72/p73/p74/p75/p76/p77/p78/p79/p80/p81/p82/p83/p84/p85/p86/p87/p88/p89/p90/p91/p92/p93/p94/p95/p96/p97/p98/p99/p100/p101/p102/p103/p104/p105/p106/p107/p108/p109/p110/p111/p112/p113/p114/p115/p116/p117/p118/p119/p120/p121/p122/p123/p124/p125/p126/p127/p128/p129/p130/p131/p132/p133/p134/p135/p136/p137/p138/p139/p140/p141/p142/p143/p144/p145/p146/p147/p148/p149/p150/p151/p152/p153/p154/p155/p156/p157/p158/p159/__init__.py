from . import p160
