# R12: an empty package.
