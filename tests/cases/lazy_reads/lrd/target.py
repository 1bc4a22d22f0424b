VALUE = 1


def deco(f):
    return f


raise ImportError("lrd.target refuses to load: it must not run")
