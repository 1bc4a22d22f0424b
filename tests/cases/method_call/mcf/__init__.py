from . import tools
VALUE = 2
