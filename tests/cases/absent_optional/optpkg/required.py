try:
    import optpkg_absent_dependency_xyz
except ImportError as e:
    raise ImportError("optpkg.required needs optpkg_absent_dependency_xyz") from e
