from . import p20
