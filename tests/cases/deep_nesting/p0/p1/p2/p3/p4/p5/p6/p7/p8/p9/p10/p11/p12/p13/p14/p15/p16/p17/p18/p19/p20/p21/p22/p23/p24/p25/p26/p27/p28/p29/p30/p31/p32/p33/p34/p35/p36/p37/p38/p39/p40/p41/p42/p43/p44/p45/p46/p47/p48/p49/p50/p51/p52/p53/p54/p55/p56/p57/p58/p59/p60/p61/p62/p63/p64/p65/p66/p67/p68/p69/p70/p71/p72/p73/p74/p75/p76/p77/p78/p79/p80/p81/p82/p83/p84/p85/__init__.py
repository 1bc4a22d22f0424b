from . import p86
