from . import p81
