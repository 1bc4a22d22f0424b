from . import p169
