# unknown: finds X and Y only because exec/globals().update bound them (invisible to a parser).
from execglob.dyn import X, Y

TOTAL = X + Y
