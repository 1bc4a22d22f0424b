# a imports b before defining Box; b needs Box at import time (a base class)
from .b import helper

type Pair[T] = tuple[T, T]


class Box[T]:
    def get(self) -> T:
        raise NotImplementedError


def make[T](x: T) -> Box[T]:
    return helper(Box())
