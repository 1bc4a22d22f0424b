from . import p178
