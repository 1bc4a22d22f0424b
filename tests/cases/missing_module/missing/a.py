# R5: a submodule that does not exist: ModuleNotFoundError for missing.nosuch.
import missing.nosuch
