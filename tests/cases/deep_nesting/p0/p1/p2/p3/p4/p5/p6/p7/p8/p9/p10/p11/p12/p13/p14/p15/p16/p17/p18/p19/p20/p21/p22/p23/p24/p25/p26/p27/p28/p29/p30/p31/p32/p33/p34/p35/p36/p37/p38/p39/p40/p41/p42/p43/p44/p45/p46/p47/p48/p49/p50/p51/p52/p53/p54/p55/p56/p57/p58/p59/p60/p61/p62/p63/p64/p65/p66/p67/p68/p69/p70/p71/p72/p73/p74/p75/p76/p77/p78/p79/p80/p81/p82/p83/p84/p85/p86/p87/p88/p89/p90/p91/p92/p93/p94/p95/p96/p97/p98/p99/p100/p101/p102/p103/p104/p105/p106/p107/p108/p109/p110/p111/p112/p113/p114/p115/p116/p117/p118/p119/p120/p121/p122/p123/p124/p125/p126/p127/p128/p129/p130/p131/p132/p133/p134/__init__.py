from . import p135
