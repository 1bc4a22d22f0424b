import lbrk.first as first

SEEN = first.DONE  # an AttributeError if imported while lbrk.first runs
