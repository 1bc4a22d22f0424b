from . import p155
