# R9: an empty package.
