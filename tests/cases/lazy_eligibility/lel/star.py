from lel.back_star import *  # star imports are never lazy

S = 1
