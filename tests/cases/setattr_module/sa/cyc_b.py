from . import cyc_a
from .base import LATE
