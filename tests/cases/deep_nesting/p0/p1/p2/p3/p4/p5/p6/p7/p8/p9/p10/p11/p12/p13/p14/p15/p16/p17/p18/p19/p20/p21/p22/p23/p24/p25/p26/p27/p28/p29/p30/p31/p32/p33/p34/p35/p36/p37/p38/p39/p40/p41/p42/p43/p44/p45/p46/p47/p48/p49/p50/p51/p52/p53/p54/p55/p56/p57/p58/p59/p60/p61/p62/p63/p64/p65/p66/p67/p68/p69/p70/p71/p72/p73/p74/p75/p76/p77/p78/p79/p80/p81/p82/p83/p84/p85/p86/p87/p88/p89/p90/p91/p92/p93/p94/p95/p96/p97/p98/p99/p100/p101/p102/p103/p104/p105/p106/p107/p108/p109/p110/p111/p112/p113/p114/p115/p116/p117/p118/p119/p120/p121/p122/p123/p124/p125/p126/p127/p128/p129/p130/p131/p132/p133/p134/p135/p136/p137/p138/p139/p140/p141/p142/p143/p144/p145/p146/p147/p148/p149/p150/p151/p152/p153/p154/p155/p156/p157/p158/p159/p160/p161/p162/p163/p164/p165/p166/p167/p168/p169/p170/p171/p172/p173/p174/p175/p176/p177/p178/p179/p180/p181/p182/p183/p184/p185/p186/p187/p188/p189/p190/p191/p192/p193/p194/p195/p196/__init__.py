from . import p197
