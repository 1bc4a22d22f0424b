from .shapes import SHAPES
