from . import p46
