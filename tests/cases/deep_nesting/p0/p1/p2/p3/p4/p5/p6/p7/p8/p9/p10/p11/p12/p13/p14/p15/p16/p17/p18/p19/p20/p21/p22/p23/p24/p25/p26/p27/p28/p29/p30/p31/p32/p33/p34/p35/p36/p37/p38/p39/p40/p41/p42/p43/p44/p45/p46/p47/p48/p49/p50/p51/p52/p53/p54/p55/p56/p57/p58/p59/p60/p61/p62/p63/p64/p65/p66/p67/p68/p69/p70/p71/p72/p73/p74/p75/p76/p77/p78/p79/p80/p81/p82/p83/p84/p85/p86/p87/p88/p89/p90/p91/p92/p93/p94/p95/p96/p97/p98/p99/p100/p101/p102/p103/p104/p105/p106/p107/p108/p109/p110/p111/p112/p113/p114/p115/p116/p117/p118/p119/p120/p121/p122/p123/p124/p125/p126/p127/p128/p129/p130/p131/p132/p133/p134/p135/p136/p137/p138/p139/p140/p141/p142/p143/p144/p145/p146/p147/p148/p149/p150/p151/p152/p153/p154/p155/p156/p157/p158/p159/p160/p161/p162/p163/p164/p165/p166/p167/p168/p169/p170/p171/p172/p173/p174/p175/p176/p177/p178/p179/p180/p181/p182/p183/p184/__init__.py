from . import p185
