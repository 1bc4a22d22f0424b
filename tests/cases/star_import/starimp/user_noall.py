# R9: mid-cycle the star import silently copies only `early`; the later use of `late` is a NameError.
from starimp.noall import *  # noqa: F401,F403

BOTH = (early, late)  # noqa: F405
