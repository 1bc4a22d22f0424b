# the evaluated test is true: the import under it runs, and fails by the cycle
from pval.__config__ import CONFIG, flags

if CONFIG["deps"]["blas"]["found"] and flags(CONFIG)["n"] == 2 and "empty" not in CONFIG:
    from pval.lin.slow import SLOW  # noqa: F401

FAST = 1
