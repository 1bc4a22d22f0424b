from . import cyc_a
from .base import TEMP  # noqa: F401
