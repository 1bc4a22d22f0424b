# bare: `from . import helper` finds the __init__ function (normal); bare has no attribute and
# no submodule bareonly.helper, so ImportError.
from . import helper

RESULT = helper
