# R1: runs second; orderabc/__init__ has already finished, so ROOT is there (bare: it is not).
import orderabc

PARENT = orderabc.ROOT
LEVEL = 2
