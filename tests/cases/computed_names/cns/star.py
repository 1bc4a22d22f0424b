from .ufuncs import *  # noqa: F403

x = beta  # noqa: F405
