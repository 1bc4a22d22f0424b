# R22: reads Model through the loader; models reads Client back while client runs.
from sdk import Model  # noqa: F401


class Client:
    pass
