from . import p172
