from . import p133
