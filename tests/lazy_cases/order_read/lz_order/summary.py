from .registry import NAMES

COUNT_AT_IMPORT = len(NAMES)
