from . import defaults
from .config import mode
