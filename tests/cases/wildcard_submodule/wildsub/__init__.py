# a module that may have any name (a star import of a computed __all__) has all but its own
# submodules: those only their import binds (numpy._core._multiarray_tests)
