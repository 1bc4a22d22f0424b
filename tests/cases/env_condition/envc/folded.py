# a constant folded from a variable the case gives (IMPORTSAFE_CASE_LEVEL=DEBUG)
import os

LEVEL = os.environ.get("IMPORTSAFE_CASE_LEVEL", "info").lower()
VERBOSE = LEVEL in ("debug", "trace")
if VERBOSE:
    from envc.folded_user import X  # noqa: F401
Y = 1
