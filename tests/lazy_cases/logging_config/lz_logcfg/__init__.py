from . import setup
from .work import work
