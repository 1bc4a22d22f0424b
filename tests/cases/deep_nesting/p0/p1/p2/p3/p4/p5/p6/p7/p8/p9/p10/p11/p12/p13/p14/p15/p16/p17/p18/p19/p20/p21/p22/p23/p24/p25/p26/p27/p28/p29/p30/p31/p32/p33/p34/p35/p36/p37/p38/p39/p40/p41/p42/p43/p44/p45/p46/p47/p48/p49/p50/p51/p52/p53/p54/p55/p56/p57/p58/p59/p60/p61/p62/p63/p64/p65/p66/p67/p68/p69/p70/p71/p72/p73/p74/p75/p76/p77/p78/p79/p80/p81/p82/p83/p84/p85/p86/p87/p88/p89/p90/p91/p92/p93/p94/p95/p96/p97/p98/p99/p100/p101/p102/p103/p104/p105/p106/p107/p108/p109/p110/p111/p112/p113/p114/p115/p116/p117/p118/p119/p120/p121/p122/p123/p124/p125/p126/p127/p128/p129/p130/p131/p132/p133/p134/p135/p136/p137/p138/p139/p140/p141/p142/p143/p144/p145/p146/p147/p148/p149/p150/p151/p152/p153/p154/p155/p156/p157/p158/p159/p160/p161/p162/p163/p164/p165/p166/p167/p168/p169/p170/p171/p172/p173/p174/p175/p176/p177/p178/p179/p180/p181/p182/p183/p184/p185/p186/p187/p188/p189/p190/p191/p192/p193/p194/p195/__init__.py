from . import p196
