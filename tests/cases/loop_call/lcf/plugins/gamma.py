from lcf.loader import MODULES  # loader's comprehension imports gamma before MODULES exists
