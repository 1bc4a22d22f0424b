# R5: an ordinary submodule; `from fromsub import d` executes this file.
VALUE = 4
