# R4: imports b (which reads a.X at top level) before X is bound.
from attrpartial import b

X = "a"
