from . import p119
