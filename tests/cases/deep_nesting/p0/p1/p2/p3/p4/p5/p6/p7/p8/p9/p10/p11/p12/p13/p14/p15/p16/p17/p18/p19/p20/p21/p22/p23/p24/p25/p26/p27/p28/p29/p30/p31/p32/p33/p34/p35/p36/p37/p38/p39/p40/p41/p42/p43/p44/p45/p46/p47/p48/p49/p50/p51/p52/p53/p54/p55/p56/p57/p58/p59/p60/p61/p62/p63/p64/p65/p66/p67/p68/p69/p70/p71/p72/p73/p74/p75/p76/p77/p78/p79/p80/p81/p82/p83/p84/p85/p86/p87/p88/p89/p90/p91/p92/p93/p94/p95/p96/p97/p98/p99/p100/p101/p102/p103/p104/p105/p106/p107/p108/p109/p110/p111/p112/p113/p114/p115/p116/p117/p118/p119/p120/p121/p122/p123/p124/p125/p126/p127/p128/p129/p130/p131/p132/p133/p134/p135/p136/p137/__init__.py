from . import p138
