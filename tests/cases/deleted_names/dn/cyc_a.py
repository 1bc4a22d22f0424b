from . import base
from . import cyc_b

delattr(base, "TEMP")
