from retpkg.helpers import backend, probe

BACKEND = backend("slow")
if BACKEND is not None:
    from retpkg.native import Native
HAS_EXTRA = probe()
if HAS_EXTRA:
    from retpkg.native import Native
