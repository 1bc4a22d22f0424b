from . import p127
