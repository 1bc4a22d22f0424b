from .hooks import HOOKS, run_hooks
from . import audit
