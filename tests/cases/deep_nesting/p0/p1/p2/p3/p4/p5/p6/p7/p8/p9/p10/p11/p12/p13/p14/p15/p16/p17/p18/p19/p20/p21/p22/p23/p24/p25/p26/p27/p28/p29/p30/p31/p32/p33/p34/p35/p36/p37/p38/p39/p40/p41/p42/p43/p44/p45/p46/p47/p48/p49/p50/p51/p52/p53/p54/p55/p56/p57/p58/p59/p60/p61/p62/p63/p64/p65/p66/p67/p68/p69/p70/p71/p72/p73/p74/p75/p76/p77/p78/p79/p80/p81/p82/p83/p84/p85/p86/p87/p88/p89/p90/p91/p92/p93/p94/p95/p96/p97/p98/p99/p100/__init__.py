from . import p101
