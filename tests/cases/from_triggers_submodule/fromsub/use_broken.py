# R5: the submodule's own ModuleNotFoundError (not for fromsub.broken itself) is not swallowed.
from fromsub import broken
