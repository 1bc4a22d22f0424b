from .shapes import Square, area
