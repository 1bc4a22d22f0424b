from . import p136
