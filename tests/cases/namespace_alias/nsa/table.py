from nsa.reader import READ  # reader reads A, bound below: fails by the cycle

_g = globals()
for _k in ("A", "B"):
    _g[_k] = 1
