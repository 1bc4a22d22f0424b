# R21: an empty package.
