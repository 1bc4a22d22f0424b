from .kinds import DONE
W = Z = 1
