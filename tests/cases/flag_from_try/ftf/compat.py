import importlib.metadata

try:
    _version = importlib.metadata.version("importsafe-absent-distribution")
except importlib.metadata.PackageNotFoundError:  # not installed: the flag is False
    HAVE_DIST = False
else:
    HAVE_DIST = True

NAMES = ("a",)
if HAVE_DIST:
    NAMES += ("b",)
