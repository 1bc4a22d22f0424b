from dynnames.computed_all import *  # noqa: F403

X = red  # noqa: F405
