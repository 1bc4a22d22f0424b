# ... which static analysis cannot check: json has no `nonexistent_name` (assumed importable)
from json import *  # noqa: F403

MISSING = nonexistent_name  # noqa: F405
