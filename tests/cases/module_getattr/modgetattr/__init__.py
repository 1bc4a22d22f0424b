# R10: an empty package.
