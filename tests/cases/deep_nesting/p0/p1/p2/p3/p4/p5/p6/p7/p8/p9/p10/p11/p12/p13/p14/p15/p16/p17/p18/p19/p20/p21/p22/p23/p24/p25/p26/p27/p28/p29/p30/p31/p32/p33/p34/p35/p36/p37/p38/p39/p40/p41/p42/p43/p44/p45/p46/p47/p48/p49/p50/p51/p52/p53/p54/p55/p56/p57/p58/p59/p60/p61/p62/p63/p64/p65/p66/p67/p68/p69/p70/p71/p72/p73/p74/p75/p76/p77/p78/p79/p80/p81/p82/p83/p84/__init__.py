from . import p85
