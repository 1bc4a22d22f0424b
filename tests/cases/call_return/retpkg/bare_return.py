from retpkg.helpers import maybe

NONE = maybe(True)
if NONE is None:
    from retpkg.native import Native
