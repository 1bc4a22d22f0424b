from . import p28
