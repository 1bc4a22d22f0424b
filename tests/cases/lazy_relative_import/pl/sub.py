import pl

X = pl.Extra
