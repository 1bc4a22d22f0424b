# R27: an empty package.
