from .model import Model
from . import extras
