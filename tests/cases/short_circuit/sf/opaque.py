import os

from . import late

# os.cpu_count() is not known statically: late.LATE may be read before it is bound, or not
COUNT = os.cpu_count() or late.LATE
