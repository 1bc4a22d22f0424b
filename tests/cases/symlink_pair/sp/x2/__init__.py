from sp.x1 import X1
X2 = 2
