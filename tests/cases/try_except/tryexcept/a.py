# R13: imports b before X is bound; b guards its import of X with try/except ImportError.
from tryexcept.b import helper

X = "a"
