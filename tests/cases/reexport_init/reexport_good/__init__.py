# reexport: Thing is re-exported before the submodule that needs it is imported: normal mode works.
from .core import Thing
from .helpers import describe
