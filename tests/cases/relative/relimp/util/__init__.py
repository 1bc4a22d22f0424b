# R8: an empty subpackage.
