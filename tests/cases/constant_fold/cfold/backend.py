# sympy.core.backend's shape: an environment variable (taken as unset) read through a
# string method and an `in` test on a literal tuple
import os

USE_NATIVE = os.getenv("CFOLD_USE_NATIVE", "0")
USE_NATIVE = USE_NATIVE.lower() in ("1", "t", "true")

if USE_NATIVE:
    from cfold_native import Symbol  # noqa: F401  (not installed)
else:
    Symbol = object
