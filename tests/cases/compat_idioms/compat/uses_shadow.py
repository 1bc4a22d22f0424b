# reads the module file's name; importing compat.shadow.inner fails
from .shadow import VALUE  # noqa: F401
