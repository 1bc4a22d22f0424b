# R10b: first, cyc_b is imported by the fromlist handling (__getattr__ raises for it) and
# reads X from this half-initialised module: ImportError, whatever __getattr__ of mgs does.
from mgs import cyc_b  # noqa: F401

X = 1
