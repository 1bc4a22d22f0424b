import lbrk.fallback as fb

FLAG = fb.READY  # an AttributeError while lbrk.fallback runs: not caught by its loop
