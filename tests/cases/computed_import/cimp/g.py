# R20: a leaf.
G = 1
