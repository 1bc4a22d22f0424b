from . import p153
