from .core import renders

class Circle:
    pass

@renders(Circle)
def _render_circle(c):
    return 'circle'
