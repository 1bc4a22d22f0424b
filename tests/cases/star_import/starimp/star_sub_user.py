# R9: the names of sub's unpacked __all__, and the submodule it names: ok.
from starimp.sub import *  # noqa: F403

BOTH = L + R + right.R  # noqa: F405
