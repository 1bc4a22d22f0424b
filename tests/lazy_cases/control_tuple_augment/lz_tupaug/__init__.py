from .parser import DEFAULTS, run
from . import extra
