# R12: the same decorator, but this module binds `setattr` itself: a call of mark() at import
# time runs this module's setattr, which imports callb.late.


def setattr(obj, name, value):  # noqa: A001 - shadows the builtin on purpose
    from callb.late import VALUE
    return VALUE


def mark(func):
    setattr(func, "marked", True)
    return func
