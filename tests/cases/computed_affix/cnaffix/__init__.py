# R26: an empty package.
