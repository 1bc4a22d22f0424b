from . import p165
