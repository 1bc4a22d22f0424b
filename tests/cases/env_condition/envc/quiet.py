# IMPORTSAFE_CASE_QUIET is not given: unset, as in the ordinary environment, so the import
# that would meet the cycle never runs
import os

if os.getenv("IMPORTSAFE_CASE_QUIET"):
    from envc.quiet_user import USER  # noqa: F401
VALUE = 1
