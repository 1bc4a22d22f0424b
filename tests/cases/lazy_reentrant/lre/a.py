from lre.b import Y

Z = Y  # resolving Y runs lre.b, which reads lre.a.Y: the same proxy, again
