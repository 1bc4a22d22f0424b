from . import p146
