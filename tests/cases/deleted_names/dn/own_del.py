X = 1
del globals()["X"]
value = X  # noqa: F821
