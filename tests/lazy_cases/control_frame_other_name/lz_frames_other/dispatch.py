import inspect


def extend(func):
    """multipledispatch's way: add to the function of that name in the caller's namespace."""
    caller = inspect.currentframe().f_back.f_locals
    existing = caller.get(func.__name__)
    if existing is None:
        return func
    existing.add(func)
    return existing
