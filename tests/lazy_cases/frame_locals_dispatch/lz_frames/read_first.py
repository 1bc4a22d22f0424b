from .handlers import union
from .dispatch import extend

NAME = union.name  # read as a name: resolved before the decorator looks


@extend
def union(self, other):
    return other
