from ndoc.core import thing  # noqa: F401
from ndoc import _docs  # noqa: F401
