# `from dynpkg import red`: no submodule dynpkg.red exists, so whatever hasattr says,
# nothing is imported; the name comes from the star import
from dynnames.dynpkg import red

Z = red
