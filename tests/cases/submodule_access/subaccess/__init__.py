# R2/R6: an empty package; it is complete while its submodules run.
