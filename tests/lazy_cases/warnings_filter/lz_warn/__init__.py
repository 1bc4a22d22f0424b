from . import strict
from .api import old_function
