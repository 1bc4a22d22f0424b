# compat.shadow is a module, not a package: its same-named directory is never searched
import compat.shadow.inner  # noqa: F401
