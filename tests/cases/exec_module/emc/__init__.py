from .part import VALUE
