# R20: a leaf.
W = 1
