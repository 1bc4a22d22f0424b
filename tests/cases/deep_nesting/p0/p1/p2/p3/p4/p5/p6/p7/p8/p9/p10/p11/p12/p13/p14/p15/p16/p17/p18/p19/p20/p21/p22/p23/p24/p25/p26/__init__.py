from . import p27
