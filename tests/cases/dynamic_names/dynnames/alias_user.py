# decided, not unknown: loop binds Alias2 and Alias3 to SHARED's value
from dynnames.loop import Alias2, Alias3

TOTAL = Alias2 + Alias3
