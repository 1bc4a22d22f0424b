from .registry import get
from .fast import Fast
DEFAULT = Fast.name
