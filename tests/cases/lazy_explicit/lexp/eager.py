from lexp.uses import U  # not lazy: the cycle fails in normal mode, works in lazy mode

E = 1
