from . import p65
