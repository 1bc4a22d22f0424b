from .registry import NAMES
from . import summary
from . import extra
