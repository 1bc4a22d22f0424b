import lbrk.skip as skip

SEEN = skip.LATER  # an AttributeError if imported while lbrk.skip runs
