# bindings: entered through binder, all of these are already bound mid-cycle; LATE is read only in a function.
from bindings.binder import (ANNOTATED, COUNT, FROM_GLOBAL, LOOP_VAR, WALRUS, WITH_VAR, json_alias,
                             os_path, xml)
from bindings import binder


def late():
    return binder.LATE
