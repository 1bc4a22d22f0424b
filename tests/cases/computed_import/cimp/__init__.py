# R20: an empty package.
