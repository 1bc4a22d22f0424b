from . import base
from . import cyc_b

setattr(base, "LATE", 1)
