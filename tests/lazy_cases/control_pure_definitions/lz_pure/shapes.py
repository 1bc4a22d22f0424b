from dataclasses import dataclass

SIDES = 4

@dataclass
class Square:
    side: float

def area(shape):
    return shape.side ** 2
