import lre.a

Y = 1
W = lre.a.Y
