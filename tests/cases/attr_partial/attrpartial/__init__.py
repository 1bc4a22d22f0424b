# R2/R4: an empty package.
