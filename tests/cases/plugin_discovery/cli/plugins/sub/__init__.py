# R21: a subpackage of plugins.
