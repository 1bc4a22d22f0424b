# R13: imports d before X is bound.
from tryexcept import d

X = "c"
