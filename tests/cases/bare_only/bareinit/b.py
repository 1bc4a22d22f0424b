# bare: normal mode always enters through __init__ -> a -> b (fails); bare mode enters b first, a
# then completes and b works.
from . import a

B = a.A + "b"
