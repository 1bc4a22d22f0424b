from . import p22
