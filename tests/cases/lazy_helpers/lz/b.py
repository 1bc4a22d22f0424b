import lz

x = lz.sub.X
