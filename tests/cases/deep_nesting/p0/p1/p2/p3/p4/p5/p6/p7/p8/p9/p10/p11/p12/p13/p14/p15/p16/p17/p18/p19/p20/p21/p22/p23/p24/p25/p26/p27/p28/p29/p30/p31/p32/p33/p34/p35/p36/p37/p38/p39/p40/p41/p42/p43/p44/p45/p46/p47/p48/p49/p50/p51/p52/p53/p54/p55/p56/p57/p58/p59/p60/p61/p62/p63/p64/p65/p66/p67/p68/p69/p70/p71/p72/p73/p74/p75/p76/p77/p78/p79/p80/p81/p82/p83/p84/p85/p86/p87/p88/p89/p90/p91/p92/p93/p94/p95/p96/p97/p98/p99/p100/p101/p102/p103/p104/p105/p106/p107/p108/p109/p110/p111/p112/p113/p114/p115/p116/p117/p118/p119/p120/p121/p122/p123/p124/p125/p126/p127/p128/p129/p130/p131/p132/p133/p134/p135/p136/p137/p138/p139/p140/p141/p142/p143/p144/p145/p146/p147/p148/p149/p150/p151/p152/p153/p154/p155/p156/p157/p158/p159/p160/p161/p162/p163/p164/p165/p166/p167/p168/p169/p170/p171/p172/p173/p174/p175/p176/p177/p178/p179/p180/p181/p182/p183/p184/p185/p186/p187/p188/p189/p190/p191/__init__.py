from . import p192
