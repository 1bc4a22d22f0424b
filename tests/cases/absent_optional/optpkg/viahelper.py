from optpkg.helper import import_module

accel = import_module("optpkg_absent_dependency_xyz", import_kwargs={"fromlist": ["sub"]})
if accel is None:
    from .viahelper_back import X
Y = 1
