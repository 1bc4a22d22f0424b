from .base import Node

class Leaf(Node):
    pass
