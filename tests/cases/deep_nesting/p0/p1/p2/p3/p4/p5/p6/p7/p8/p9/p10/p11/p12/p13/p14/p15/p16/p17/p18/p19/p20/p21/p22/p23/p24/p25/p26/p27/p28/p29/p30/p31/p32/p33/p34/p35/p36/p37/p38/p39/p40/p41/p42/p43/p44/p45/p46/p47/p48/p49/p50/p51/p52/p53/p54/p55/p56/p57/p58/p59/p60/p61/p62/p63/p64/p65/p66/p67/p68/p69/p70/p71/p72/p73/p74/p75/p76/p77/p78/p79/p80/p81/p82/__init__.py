from . import p83
