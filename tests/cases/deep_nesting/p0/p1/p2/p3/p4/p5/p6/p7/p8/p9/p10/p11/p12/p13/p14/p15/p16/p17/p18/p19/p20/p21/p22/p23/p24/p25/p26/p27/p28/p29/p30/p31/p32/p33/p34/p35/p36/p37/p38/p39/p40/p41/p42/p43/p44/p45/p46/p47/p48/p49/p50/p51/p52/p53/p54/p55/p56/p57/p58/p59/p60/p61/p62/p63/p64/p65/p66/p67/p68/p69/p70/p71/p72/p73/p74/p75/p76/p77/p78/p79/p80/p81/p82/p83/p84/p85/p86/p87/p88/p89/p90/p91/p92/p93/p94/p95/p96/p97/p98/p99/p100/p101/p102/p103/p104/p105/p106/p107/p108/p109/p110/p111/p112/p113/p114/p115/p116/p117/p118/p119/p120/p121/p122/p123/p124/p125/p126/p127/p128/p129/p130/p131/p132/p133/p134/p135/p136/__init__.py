from . import p137
