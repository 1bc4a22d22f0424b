from . import p183
