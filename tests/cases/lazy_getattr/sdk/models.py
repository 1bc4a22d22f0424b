# R22: reads Client through the loader.
from sdk import Client  # noqa: F401


class Model:
    pass
