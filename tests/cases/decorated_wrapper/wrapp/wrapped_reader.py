from .wrapped import WRAPPED
