# R9: a package whose __all__ unpacks its submodules' __all__ into a literal (bokeh's style):
# read statically, so a star import of the package binds exactly these names.
from starimp.sub import left, right
from starimp.sub.left import *  # noqa: F403
from starimp.sub.right import *  # noqa: F403

__all__ = (*left.__all__, *right.__all__, "right")
