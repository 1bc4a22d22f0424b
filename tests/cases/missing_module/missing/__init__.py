# R5: an empty package.
