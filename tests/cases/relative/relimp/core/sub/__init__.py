# R8: an empty nested subpackage.
