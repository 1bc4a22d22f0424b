# a star import of a package whose __all__ is its own dir(), filtered
from pval.lin import *  # noqa: F403

GOT = get_blas  # noqa: F405
