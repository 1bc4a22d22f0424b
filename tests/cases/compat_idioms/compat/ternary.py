# a conditional expression evaluates one branch; `and` / `or` stop early
import sys

PY3 = sys.version_info[0] >= 3
text_type = str if PY3 else unicode  # noqa: F821 - never evaluated on Python 3
FIRST = PY3 or long  # noqa: F821 - never evaluated
