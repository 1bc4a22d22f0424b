def probe():
    try:
        import optpkg_absent_dependency_xyz
    except ImportError:
        return None
    return optpkg_absent_dependency_xyz


DEP = probe()
if DEP is None:
    from .fallback import FALLBACK
