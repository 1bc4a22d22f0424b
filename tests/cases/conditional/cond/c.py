# conditional: an import under a true version check is an ordinary import: c -> d before C is bound.
import sys

if sys.version_info >= (3, 0):
    from cond import d

C = "c"
