from . import p175
