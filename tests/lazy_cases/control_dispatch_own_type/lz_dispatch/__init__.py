from .core import render
from .shapes import Circle
