# R26: what the test tells holds only in the `if` body: after it, the name may be anything.
import importlib
import os

for name in os.environ.get("CNAFFIX_NAMES", "").split(","):
    if name.startswith("cnaffix-ext"):
        pass
    try:
        importlib.import_module(name)
    except Exception:
        pass
