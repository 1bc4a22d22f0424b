class K:
    pass


setattr(K, "x", 1)
from .base import VALUE  # noqa: E402
