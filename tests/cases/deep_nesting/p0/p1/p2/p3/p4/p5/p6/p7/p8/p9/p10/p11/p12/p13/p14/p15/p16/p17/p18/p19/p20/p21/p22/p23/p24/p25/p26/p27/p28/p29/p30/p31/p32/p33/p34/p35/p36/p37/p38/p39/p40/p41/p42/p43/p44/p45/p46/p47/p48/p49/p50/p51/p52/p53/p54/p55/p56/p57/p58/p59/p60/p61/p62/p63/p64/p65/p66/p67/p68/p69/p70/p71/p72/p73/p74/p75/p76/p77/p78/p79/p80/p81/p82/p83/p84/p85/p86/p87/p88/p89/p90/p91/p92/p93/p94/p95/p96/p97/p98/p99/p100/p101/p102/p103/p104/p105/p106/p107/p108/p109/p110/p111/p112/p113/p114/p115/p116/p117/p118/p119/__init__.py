from . import p120
