from lcf.registry import DONE  # the registry's loop imports this package before DONE is bound
