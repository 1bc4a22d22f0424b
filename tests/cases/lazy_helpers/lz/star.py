from lz import *  # noqa: F403  (__all__ lists the names: each is asked of the loader)
