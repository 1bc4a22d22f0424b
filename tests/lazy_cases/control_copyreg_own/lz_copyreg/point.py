import copyreg

class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

def _reduce(p):
    return Point, (p.x, p.y)

copyreg.pickle(Point, _reduce)
