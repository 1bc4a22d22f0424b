X = 1
globals().pop("X")
value = X  # noqa: F821
