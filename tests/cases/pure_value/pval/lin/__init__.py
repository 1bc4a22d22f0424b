from pval.lin.blas import *  # noqa: F403

__all__ = [s for s in dir() if not s.startswith('_')]
