# R5: from-import out of a missing submodule: ModuleNotFoundError for missing.nosuch.
from missing.nosuch import x
