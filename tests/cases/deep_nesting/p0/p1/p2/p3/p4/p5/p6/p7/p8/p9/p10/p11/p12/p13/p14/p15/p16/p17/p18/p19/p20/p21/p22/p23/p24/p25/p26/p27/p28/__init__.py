from . import p29
