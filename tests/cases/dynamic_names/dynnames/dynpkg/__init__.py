# a package with a star import of unknown names and globals() writes of unknown keys
import os

from dynnames.computed_all import *  # noqa: F403

for _n in sorted(os.environ)[:0]:
    globals()[_n] = 1
