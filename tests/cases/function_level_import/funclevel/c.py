# R12: imports d before C is bound.
from funclevel.d import D

C = "c"
