# may have been bound by the loop (CPython: it ran zero times); prefixed has finished, so the
# ordinary-order rule takes the name as bound: unbound, the read fails in every order
from dynnames.prefixed import _env_HOME  # noqa: F401
