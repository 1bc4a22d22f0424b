from pval.__config__ import CONFIG

HAS_ILP64 = CONFIG["deps"]["blas"]["has ilp64"]
del CONFIG
if HAS_ILP64:
    # false: never runs (it would fail: no such module, under a package still running)
    from pval.lin import _fblas_64  # noqa: F401


def get_blas():
    return "blas"
