from . import p149
