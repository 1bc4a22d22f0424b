from ftf.loader import MODULES  # loader's comprehension imports a before MODULES exists
