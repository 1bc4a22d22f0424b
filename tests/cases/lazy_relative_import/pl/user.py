import pl

Y = pl.sub.X
Z = pl.B
