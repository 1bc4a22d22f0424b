# R21: the plugins package.
