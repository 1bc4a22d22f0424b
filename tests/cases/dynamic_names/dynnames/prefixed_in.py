# may have been bound by the loop: unknown statically (CPython: the loop ran zero times)
from dynnames.prefixed import _env_HOME  # noqa: F401
