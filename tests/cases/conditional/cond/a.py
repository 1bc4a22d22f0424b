# conditional: a version check that is true on every supported Python runs its import; the
# else branch (a missing module) never runs.
import sys

if sys.version_info >= (3, 0):
    from cond.b import B
else:
    from cond.missing_py2_module import B

A = "a" + B
