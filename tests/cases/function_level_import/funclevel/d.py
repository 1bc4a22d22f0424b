# R12: a function-level import called at top level runs at import time, so the cycle bites.
def get_c():
    from funclevel.c import C
    return C


D = get_c()
