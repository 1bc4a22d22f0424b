# R22: a name the loader does not list: AttributeError, so `from` raises ImportError.
from sdk import Nope  # noqa: F401
