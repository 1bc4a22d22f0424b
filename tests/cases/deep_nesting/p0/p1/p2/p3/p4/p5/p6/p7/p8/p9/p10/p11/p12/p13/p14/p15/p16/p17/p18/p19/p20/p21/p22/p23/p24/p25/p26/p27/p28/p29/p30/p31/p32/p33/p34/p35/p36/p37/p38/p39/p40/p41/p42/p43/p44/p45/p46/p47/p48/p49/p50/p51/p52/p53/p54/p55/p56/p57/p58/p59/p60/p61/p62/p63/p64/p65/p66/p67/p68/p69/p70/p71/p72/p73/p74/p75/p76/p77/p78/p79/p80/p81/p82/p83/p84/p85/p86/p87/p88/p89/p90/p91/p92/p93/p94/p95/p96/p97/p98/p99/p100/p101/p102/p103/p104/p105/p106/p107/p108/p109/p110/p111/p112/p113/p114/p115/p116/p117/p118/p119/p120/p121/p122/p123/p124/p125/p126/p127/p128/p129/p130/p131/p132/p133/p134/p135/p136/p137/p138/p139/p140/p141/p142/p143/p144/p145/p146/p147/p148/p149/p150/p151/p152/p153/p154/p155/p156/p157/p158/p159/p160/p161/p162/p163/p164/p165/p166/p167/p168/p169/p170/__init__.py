from . import p171
