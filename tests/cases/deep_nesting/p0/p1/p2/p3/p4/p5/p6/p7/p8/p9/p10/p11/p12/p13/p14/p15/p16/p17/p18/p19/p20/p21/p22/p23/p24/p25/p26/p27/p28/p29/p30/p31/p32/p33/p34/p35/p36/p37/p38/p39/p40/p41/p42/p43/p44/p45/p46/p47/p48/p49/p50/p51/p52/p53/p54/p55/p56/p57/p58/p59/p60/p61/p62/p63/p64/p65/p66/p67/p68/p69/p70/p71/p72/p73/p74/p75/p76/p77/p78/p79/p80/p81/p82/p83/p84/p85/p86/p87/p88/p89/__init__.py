from . import p90
