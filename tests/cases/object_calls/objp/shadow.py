from .shadowed import Shadowed

s = Shadowed()
s.load()
SHADOW = 1
