# the case sets IMPORTSAFE_CASE_PLUGINS=1 (--env): the import under the test runs, and
# meets the cycle (registry reads NAME, not bound yet)
import os

if os.environ.get("IMPORTSAFE_CASE_PLUGINS") == "1":
    from envc.registry import REGISTRY  # noqa: F401
NAME = "plugins"
