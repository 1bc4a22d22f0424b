from . import p121
