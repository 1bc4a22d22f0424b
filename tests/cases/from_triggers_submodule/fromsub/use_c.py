# R5: the existing attribute `c` wins (normal); in bare mode there is no attribute, so c.py runs and fails.
from fromsub import c

TEXT = c
