# R22: reads Helper through the loader: no cycle.
from sdk import Helper  # noqa: F401
