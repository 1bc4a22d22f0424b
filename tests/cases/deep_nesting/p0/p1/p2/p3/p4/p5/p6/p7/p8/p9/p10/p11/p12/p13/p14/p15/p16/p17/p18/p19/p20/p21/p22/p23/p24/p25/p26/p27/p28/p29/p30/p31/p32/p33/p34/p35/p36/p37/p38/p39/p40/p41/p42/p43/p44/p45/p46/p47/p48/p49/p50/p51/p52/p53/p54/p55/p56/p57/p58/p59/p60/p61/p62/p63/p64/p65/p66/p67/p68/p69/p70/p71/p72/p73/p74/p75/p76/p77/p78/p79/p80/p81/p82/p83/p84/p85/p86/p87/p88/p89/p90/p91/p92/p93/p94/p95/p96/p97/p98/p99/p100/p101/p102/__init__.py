from . import p103
