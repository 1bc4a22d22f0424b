from . import p116
