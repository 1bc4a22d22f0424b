from . import compat
from .api import dump
