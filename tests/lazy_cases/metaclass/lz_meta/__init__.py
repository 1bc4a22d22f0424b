from .meta import Plugin, by_name
from .zipper import Zipper
