# reexport: the helper submodule is imported before Thing is re-exported: every normal import fails.
from .helpers import describe
from .core import Thing
