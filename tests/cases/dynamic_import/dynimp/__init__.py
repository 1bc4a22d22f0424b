# R11: an empty package.
