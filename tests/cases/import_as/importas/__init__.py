# R7: an empty package.
