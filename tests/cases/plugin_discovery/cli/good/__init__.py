# R21: the good plugins package.
