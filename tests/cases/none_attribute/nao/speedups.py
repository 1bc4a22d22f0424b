import nao.missing_dependency_xyz  # not installed: the package falls back to None
level = 3
