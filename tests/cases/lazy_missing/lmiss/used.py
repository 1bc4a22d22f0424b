from lmiss.gone import thing

X = 1


def helper():
    return X


Y = thing  # the ModuleNotFoundError happens here under lazy mode
