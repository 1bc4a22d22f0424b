from . import p132
