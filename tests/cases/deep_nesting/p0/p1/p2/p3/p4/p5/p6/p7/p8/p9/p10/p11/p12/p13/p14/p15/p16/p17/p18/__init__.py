from . import p19
