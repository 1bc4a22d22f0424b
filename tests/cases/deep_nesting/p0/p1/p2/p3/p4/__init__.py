from . import p5
