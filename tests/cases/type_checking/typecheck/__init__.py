# R13: an empty package.
