# Reads what the package bound: there in normal mode, not in bare mode.
from ps import VALUE  # noqa: F401
