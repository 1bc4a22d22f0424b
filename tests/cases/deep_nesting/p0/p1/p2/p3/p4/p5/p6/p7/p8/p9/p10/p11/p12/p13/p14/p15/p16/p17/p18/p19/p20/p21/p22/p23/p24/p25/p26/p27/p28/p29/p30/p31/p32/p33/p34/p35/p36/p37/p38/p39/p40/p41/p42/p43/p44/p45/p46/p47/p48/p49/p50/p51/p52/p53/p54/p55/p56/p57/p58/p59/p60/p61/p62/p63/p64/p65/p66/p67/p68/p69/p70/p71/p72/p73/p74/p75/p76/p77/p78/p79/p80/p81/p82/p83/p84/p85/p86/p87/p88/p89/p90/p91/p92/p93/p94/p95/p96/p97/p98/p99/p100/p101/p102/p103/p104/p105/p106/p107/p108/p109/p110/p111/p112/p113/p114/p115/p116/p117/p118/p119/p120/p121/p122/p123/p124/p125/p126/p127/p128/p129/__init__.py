from . import p130
