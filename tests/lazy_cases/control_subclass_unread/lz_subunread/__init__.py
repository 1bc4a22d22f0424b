from .base import Node
from .leaf import Leaf
