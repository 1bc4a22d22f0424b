# ok: finds X only because exec bound it; dyn has finished, so X is taken as bound (assumed).
from execglob.dyn import X, Y

TOTAL = X + Y
