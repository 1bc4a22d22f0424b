from . import p174
