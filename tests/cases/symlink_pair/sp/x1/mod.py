from sp.x2 import X2
