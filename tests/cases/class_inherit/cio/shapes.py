from .base import Base


class Square(Base):
    sides = 4


SQUARE = Square(1)  # runs Base.__init__, in cio.base
