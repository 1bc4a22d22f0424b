# R13/R3: an empty package.
