# R9: sub2.__all__ names "missing", which the star import cannot get: AttributeError.
from starimp.sub2 import *  # noqa: F403
