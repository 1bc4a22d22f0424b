from lmiss.unused import X, NOPE

A = X
B = NOPE  # ImportError from lmiss.unused, at this read
