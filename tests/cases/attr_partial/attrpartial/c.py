# R12: imports d before X is bound; d only reads c.X inside a function.
from attrpartial import d

X = "c"
