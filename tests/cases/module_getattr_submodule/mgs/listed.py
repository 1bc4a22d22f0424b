# R10b: a submodule mgs.__getattr__ imports when asked for it.
VALUE = 1
