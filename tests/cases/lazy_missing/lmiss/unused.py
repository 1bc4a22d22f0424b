import lmiss.not_there  # never read: lazily, nothing is looked up
from lmiss import also_missing

X = 1
