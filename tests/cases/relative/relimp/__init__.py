# R8: an empty top package.
