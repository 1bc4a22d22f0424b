from .cleanup import TEMP
