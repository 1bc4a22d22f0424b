# neither __getattr__ answers: ImportError
from dg import nope  # noqa: F401
