from numpy.lib import add_newdoc

import ndoc.late  # noqa: F401

add_newdoc("ndoc.late", "VALUE", "the late value")
BASE = 1
