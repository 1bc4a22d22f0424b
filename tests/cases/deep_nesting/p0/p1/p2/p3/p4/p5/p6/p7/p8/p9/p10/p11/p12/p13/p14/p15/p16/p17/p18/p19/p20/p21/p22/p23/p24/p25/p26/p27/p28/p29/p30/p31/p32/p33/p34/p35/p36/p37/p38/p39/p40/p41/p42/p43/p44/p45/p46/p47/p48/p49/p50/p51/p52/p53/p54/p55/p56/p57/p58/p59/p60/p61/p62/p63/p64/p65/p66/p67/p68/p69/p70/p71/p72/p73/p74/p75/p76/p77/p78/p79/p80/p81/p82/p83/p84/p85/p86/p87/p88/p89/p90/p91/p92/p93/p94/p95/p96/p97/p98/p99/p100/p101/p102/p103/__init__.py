from . import p104
