# ufuncs has finished running when the class body reads it: `add` is taken as bound (the
# ordinary-order rule); unbound, this read would fail in every import order
from . import ufuncs


class ndarray:
    plus = ufuncs.add
