# not listed at all: the saved __getattr__ raises AttributeError
from pl import Nothing  # noqa: F401
