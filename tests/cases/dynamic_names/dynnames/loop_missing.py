# decided, not unknown: the loop binds List2..List4 only
from dynnames.loop import List9  # noqa: F401
