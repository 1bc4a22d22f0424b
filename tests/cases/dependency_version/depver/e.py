# oldlib.VERSION is "0.9.1" (oldlib/version.py, through `from .version import VERSION`)
import oldlib

if int(oldlib.VERSION.split(".")[0]) < 1:
    from depver.f import F  # noqa: F401
E = 1
