# Imported while `half` runs: keeps the half-initialised module, which then fails.
from . import half  # noqa: F401
