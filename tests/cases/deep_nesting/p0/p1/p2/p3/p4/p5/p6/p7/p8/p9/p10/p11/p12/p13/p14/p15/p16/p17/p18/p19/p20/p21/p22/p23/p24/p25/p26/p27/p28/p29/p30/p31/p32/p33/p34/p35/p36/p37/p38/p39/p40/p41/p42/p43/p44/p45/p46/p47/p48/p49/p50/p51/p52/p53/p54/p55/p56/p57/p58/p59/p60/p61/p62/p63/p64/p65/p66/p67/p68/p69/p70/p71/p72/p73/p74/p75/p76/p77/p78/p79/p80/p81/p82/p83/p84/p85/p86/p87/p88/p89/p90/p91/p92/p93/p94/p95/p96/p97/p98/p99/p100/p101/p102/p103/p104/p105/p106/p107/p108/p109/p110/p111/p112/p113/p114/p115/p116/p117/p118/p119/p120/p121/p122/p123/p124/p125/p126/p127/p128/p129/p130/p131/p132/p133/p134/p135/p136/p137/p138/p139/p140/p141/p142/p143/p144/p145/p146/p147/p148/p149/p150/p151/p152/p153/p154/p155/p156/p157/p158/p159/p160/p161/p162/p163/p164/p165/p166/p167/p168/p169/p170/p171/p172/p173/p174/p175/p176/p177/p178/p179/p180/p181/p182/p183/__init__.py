from . import p184
