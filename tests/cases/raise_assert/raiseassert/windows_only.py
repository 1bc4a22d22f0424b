# sys.platform.startswith is decided statically: the raise is never reached on Linux
import sys

if sys.platform.startswith("win"):
    raise ImportError("windows only")
