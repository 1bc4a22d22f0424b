from . import p99
