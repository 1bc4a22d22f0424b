# b's generic function and class read the type parameter, which is bound inside them
from .a import Box


def helper[T](x: T) -> T:
    return x


class Crate[T](Box[T]):
    items: list[T]
