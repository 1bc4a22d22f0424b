# R5: an empty package; the cycles live in its submodules.
