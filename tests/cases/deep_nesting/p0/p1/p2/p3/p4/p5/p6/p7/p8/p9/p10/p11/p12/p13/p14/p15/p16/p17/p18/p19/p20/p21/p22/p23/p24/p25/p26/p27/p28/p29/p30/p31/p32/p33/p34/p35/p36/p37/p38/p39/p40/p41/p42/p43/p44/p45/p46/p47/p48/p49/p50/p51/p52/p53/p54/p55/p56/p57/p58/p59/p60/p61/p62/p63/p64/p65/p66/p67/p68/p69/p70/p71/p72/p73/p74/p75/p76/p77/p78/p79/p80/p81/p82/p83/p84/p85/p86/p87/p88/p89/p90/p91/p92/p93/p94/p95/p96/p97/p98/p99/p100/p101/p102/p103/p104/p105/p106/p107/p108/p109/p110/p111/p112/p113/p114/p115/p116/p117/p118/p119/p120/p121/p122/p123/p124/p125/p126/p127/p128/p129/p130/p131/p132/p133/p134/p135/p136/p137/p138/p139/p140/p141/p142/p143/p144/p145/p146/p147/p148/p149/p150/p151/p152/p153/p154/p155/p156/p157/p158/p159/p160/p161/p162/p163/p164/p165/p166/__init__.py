from . import p167
