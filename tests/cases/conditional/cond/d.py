# conditional: reads c.C at import time under a true version check: fails when c is the entry.
import sys

from cond import c

if sys.version_info >= (3, 0):
    VALUE = c.C
