try:
    from optpkg_absent_dependency_xyz import fast
except ModuleNotFoundError:
    fast = None
if fast is None:
    from .slowpath import slow
MODE = "slow"
