from . import p143
