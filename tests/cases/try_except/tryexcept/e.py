# R3: f fails inside the try and is removed from sys.modules; the later import re-executes it.
try:
    import tryexcept.f
except ImportError:
    pass

READY = True

from tryexcept.f import F  # noqa: E402  (f runs again from scratch and now finds READY)
