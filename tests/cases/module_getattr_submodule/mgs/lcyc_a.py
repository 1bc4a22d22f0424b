# R10b: first, hasattr(mgs, "lcyc_b") runs __getattr__, which imports lcyc_b; lcyc_b reads Y
# from this half-initialised module and the ImportError leaves hasattr: ImportError.
from mgs import lcyc_b  # noqa: F401

Y = 1
