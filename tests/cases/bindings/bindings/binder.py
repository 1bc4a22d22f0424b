# bindings: every kind of module-level binding, then the cycle point (reader imports us back).
import contextlib
import json as json_alias
from os import path as os_path
import xml.dom  # binds the top name `xml`

for LOOP_VAR in range(3):
    pass

for EMPTY_LOOP_VAR in ():  # never bound: the loop body never runs
    pass

with contextlib.nullcontext("ctx") as WITH_VAR:
    pass

if (WALRUS := 5) > 0:
    pass

COUNT = 1
COUNT += 1

ANNOTATED: int = 3
ONLY_ANNOTATED: int  # an annotation without a value binds nothing


def _set_global():
    global FROM_GLOBAL
    FROM_GLOBAL = "set by a function called at top level"


def _never_called():
    global NEVER_SET
    NEVER_SET = "never"


_set_global()

TEMP = 1
del TEMP

from bindings import reader  # noqa: E402,F401  (finds every name bound above)

LATE = "bound after the cycle point"
