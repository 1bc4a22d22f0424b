# The failed submodule is not in sys.modules: importing it again runs it again, and fails.
from . import broken  # noqa: F401
