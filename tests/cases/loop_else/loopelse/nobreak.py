for x in range(3):
    pass
else:
    raise RuntimeError("always: the loop has no break")
