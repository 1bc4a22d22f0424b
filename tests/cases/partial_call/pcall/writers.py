from . import tables  # noqa: F401  (bound first: the registry's table exists)
from .registry import register_writer

JSON = register_writer("json")
