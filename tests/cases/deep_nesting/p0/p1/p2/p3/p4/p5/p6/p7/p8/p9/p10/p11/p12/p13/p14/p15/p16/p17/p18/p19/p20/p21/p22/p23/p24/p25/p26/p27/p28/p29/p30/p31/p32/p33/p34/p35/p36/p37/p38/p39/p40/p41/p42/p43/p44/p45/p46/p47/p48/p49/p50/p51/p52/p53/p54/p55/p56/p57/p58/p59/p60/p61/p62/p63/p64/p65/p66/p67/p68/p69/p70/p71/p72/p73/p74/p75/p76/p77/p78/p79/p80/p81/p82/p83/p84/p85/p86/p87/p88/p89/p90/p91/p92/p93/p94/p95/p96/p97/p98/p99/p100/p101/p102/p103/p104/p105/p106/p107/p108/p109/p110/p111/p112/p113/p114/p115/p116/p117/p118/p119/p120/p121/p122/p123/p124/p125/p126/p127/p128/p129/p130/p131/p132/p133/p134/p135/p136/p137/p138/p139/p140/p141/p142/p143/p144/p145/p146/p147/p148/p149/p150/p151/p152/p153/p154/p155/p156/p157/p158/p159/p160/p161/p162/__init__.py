from . import p163
