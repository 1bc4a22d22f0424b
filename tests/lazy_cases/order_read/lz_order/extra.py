from .registry import NAMES

NAMES.append('extra')
