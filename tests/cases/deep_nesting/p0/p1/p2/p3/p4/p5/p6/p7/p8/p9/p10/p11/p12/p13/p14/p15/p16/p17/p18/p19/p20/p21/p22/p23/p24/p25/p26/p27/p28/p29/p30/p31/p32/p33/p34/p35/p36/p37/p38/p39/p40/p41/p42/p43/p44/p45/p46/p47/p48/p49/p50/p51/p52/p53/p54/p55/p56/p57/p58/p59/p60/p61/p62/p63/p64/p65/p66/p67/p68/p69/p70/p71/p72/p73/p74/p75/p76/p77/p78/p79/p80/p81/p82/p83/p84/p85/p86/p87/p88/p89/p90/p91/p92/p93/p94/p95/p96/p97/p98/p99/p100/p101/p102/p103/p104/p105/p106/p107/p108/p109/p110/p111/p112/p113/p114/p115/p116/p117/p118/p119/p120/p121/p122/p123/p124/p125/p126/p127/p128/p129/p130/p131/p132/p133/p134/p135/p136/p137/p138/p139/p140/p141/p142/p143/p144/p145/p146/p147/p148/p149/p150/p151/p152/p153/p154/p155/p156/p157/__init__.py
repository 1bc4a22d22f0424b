from . import p158
