from . import p128
