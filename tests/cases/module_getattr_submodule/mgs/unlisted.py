# R10b: a submodule mgs.__getattr__ does not list (it raises AttributeError for it).
VALUE = 2
