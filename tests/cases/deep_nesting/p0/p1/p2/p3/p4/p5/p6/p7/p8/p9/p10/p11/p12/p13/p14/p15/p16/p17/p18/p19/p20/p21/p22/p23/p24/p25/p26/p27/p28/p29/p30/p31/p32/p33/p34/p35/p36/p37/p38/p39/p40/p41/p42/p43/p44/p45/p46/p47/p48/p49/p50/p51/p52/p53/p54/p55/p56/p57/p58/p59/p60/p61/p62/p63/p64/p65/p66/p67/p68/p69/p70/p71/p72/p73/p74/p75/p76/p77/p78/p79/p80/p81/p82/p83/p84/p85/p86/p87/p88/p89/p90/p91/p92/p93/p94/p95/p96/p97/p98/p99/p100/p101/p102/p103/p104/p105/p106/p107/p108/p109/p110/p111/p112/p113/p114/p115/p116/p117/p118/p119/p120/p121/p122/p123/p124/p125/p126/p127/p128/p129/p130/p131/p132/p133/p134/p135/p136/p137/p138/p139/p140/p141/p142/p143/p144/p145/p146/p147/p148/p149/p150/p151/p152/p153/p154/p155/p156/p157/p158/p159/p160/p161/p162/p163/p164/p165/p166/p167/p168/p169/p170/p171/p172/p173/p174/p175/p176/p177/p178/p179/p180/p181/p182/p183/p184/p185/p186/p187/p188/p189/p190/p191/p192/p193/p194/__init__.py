from . import p195
