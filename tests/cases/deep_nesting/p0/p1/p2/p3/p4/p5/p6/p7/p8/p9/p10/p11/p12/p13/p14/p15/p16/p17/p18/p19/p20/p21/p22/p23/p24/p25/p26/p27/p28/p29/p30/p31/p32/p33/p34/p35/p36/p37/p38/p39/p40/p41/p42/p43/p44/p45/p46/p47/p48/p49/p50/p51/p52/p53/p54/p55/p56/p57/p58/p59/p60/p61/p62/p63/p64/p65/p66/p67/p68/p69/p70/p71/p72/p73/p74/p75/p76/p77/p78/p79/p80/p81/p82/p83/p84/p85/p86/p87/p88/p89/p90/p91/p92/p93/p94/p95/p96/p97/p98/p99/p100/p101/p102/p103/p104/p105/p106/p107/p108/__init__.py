from . import p109
