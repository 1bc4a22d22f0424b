__all__ = ["ops", "blur", "sharpen"]

from . import ops, plain
from .filters import blur, sharpen
