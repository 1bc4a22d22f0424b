# Reads the failed module through the reference `other` kept: EARLY is there, LATE never was.
from ps.other import half

X = half.EARLY
Y = half.LATE
