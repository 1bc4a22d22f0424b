# R9: the same spelling naming a name that is neither bound nor a submodule.
from starimp.sub2 import part
from starimp.sub2.part import *  # noqa: F403

__all__ = [*part.__all__, "missing"]
