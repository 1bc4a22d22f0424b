from . import p42
