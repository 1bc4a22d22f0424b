from retpkg.helpers import first

FOUND = first(("",))
if FOUND is not None:
    from retpkg.native import Native
