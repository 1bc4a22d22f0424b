from . import p95
