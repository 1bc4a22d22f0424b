from retpkg.helpers import backend

BACKEND = backend("fast")
if BACKEND == "native":
    from retpkg.native import Native
